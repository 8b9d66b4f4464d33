// The trace writers (services/stark/prover/trace) on runs long enough that their loops split into
// several parallel ranges: an error names the earliest step that has one, as a serial pass would,
// and the interaction's running products hold across the ranges; the range_check and bitwise
// builtins' cells of fixture programs that use them (the constraint checker finds every cell as
// the AIR asks); a run that hashes nothing has Pedersen's own columns held for one period, each
// cell what the whole column holds. And the workers' guided ranges (the composition's loop).

#include "ProverRuns.h"

#include "stark/Parallel.h"
#include "stark/air/Layout.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/TraceComponents.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
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

    void guidedRangesCoverEveryIndexOnce() {
        // The composition's loop: every index in exactly one range, every range but the last
        // one of at least `grain` indices, a handful of ranges a thread rather than one per grain.
        constexpr std::size_t kCount = 100003;
        constexpr std::size_t kGrain = 5;
        std::vector<std::atomic<int>> hits(kCount);
        std::mutex mutex;
        std::vector<std::pair<std::size_t, std::size_t>> ranges;
        Workers::shared().forRangeGuided(kCount, kGrain, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                hits[i].fetch_add(1);
            }
            const std::lock_guard lock(mutex);
            ranges.emplace_back(begin, end);
        });
        for (std::size_t i = 0; i < kCount; ++i) {
            QCOMPARE(hits[i].load(), 1);
        }
        std::sort(ranges.begin(), ranges.end());
        QCOMPARE(ranges.front().first, std::size_t(0));
        for (std::size_t r = 0; r + 1 < ranges.size(); ++r) {
            QCOMPARE(ranges[r].second, ranges[r + 1].first);
            QVERIFY(ranges[r].second - ranges[r].first >= kGrain);
        }
        // A share of what is left each claim: about threads · log2(count / grain) ranges, where
        // equal ranges of the grain would be 20,001.
        QVERIFY2(ranges.size() < 4 * 4 * 16, qPrintable(QString::number(ranges.size())));
        // A range's error reaches the caller, and the workers serve the next loop in full.
        bool thrown = false;
        try {
            Workers::shared().forRangeGuided(kCount, kGrain, [](std::size_t begin, std::size_t) {
                if (begin == 0) {
                    throw std::runtime_error("range 0");
                }
            });
        } catch (const std::runtime_error& error) {
            thrown = std::string(error.what()) == "range 0";
        }
        QVERIFY(thrown);
        std::atomic<std::size_t> covered{0};
        Workers::shared().forRangeGuided(kCount, kGrain, [&](std::size_t begin, std::size_t end) {
            covered.fetch_add(end - begin);
        });
        QCOMPARE(covered.load(), kCount);
        // An empty loop calls nothing.
        bool called = false;
        Workers::shared().forRangeGuided(0, kGrain,
                                         [&](std::size_t, std::size_t) { called = true; });
        QVERIFY(!called);
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
