// The trace writers (services/stark/prover/trace) on runs long enough that their loops split into
// several parallel ranges: an error names the earliest step that has one, as a serial pass would,
// and the interaction's running products hold across the ranges; the range_check and bitwise
// builtins' cells of fixture programs that use them (the constraint checker finds every cell as
// the AIR asks); a run that hashes nothing has Pedersen's own columns held for one period, each
// cell what the whole column holds.

#include "ProverRuns.h"

#include "stark/Parallel.h"
#include "stark/air/Layout.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/TraceComponents.h"

#include <QFile>
#include <QTest>

#include <atomic>
#include <map>
#include <string>

using namespace proofdesk;
using namespace proofdesk::stark;
using namespace proofdesk::stark::test_runs;

class StarkTraceTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        // Four threads, even on a smaller machine, so that the loops below run in parallel.
        Workers::setThreadCount(4);
        QCOMPARE(Workers::shared().threads(), 4);
    }

    void theEarliestBrokenStepIsNamed() {
        // 16,384 steps: the CPU's writer splits them into ranges of 4,096 or more. Step 4,000 is
        // near the end of the first range; the later ones are near the starts of the others, so
        // they are met first in time.
        CairoRun run = countdownRun("plain", 8150);
        QCOMPARE(run.trace.size(), std::size_t(16384));
        const std::uint64_t nowhere = std::uint64_t(1) << 40;
        for (const std::size_t step : {4000, 4100, 8200, 12300}) {
            run.trace[step].pc = nowhere;
        }
        try {
            prove(run, testParameters(run, ChannelProfile::Stone));
            QFAIL("a run with steps at no instruction was proven");
        } catch (const TraceError& e) {
            QCOMPARE(std::string(e.what()), "step 4000 (instruction): memory address " +
                                                std::to_string(nowhere) +
                                                " has no value in the run's memory file");
        }
    }

    void builtinCellsHold() {
        // Programs of ../shared/fixtures that use a builtin: its memory cells, its parts in the
        // range-check or diluted pool and the unused instances meet every constraint.
        const QString dir = QStringLiteral(PROOFDESK_FIXTURES_DIR "/cairo/programs/proof_mode/");
        struct Case {
            const char* program;
            const char* layout;
            const char* builtin;
            std::size_t periodic; // columns held for one period
        };
        // small's periodic columns where every Pedersen instance is alike: its own 16, and the
        // one it shares with ECDSA where there are two ECDSA instances or more, all the dummy
        // signature (65,536 rows; at 8,192 there is one, and that column is whole).
        // pedersen_test hashes (0, 0), as the unused instances do; common_signature's one ECDSA
        // instance is its own. recursive's Pedersen columns hold the CPU's cells too.
        for (const Case& c : {Case{"assert_nn.json", "small", "range_check", 17},
                              Case{"unsigned_div_rem.json", "small", "range_check", 17},
                              Case{"pedersen_test.json", "small", "pedersen", 16},
                              Case{"common_signature.json", "small", "ecdsa", 16},
                              Case{"bitwise_builtin_test.json", "recursive", "bitwise", 0}}) {
            QFile file(dir + QLatin1String(c.program));
            if (!file.open(QIODevice::ReadOnly)) {
                QSKIP("../shared/fixtures is not here");
            }
            const CairoRun run =
                proofModeRun(nlohmann::json::parse(file.readAll().toStdString()), c.layout, {});
            const MemorySegment* segment = run.publicInput.segment(c.builtin);
            QVERIFY2(segment && segment->stop > segment->begin, c.program);
            QVERIFY2(checkedUntilTheComposition(run), c.program);
            const auto layout = air::layoutFor(c.layout, {});
            QCOMPARE(periodicColumns(*layout, run, traceRows(run.publicInput)).size(), c.periodic);
        }
    }

    void unusedBuiltinsAreHeldForOnePeriod() {
        // A countdown on small hashes and signs nothing: every Pedersen instance hashes (0, 0)
        // and every ECDSA instance checks the dummy signature, so the sixteen columns holding
        // only Pedersen's cells (3 to 18) repeat every 512 rows, the one holding both builtins'
        // (22) every ECDSA instance, 8,192 rows. Written into a table holding them for one
        // period, every cell of the trace is the cell written into a whole table; the checker
        // then finds every constraint holding.
        const CairoRun run = countdownRun("small", 300);
        const auto layout = air::layoutFor("small", {});
        const std::uint64_t n = traceRows(run.publicInput);
        QCOMPARE(n, std::uint64_t(16384));
        const std::map<std::size_t, std::uint64_t> periods = periodicColumns(*layout, run, n);
        std::map<std::size_t, std::uint64_t> expected;
        for (std::size_t column = 3; column <= 18; ++column) {
            expected[column] = 512;
        }
        expected[22] = 8192;
        QVERIFY(periods == expected);
        TraceTable whole(*layout, n, layout->columnsFirst, 0);
        TraceTable periodic(*layout, n, layout->columnsFirst, 0, periods);
        for (TraceTable* table : {&whole, &periodic}) {
            writePedersen(*table, run);
            writeEcdsa(*table, run);
        }
        for (std::size_t column = 0; column < layout->columnsFirst; ++column) {
            const std::vector<Fp>& all = whole.columns()[column];
            const std::vector<Fp>& held = periodic.columns()[column];
            QCOMPARE(held.size(), periods.contains(column) ? periods.at(column) : n);
            for (std::uint64_t row = 0; row < n; ++row) {
                if (all[row] != held[row % held.size()]) {
                    QFAIL(qPrintable(QStringLiteral("column %1, row %2").arg(column).arg(row)));
                }
            }
        }
        QVERIFY(checkedUntilTheComposition(run));

        // One instance reading another input (a cell past the segment set): no column is
        // periodic, Pedersen's instances are each computed, and the checker still passes.
        CairoRun other = run;
        const std::uint64_t input = run.publicInput.segment("pedersen")->begin + 3;
        other.memory.resize(std::max<std::size_t>(other.memory.size(), input + 1));
        other.memorySet.resize(other.memory.size());
        other.memory[input] = Fp::fromU64(5);
        other.memorySet[input] = true;
        QVERIFY(periodicColumns(*layout, other, n).empty());
    }

    void runningProductsHoldAcrossRanges() {
        // 4,096 steps: the memory pool's 32,768 cells and the range-check pool's 16,384 make
        // several ranges of the grand products. The checker passes every constraint of the trace
        // and of the interaction; the proof is then cancelled as the composition begins.
        const CairoRun run = countdownRun("plain", 2000);
        QCOMPARE(run.trace.size(), std::size_t(4096));
        QVERIFY(checkedUntilTheComposition(run));
    }

private:
    // Proves the run with the constraint checker on, cancelled as the composition begins (every
    // constraint of the trace and the interaction holds by then). Throws what the checker throws.
    static bool checkedUntilTheComposition(const CairoRun& run) {
        std::atomic<bool> cancel{false};
        ProverOptions options;
        options.parameters = testParameters(run, ChannelProfile::Stone);
        options.checkConstraints = true;
        options.cancel.flag = &cancel;
        bool checked = false;
        options.progress = [&](const ProverProgress& progress) {
            if (progress.phase == "composition") {
                checked = true;
                cancel = true;
            }
        };
        try {
            proveCairoRun(run, options);
        } catch (const ProofCancelled&) {
            return checked;
        }
        return false;
    }
};

QTEST_GUILESS_MAIN(StarkTraceTest)
#include "tst_stark_trace.moc"
