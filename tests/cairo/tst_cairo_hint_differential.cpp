// Differential testing of native hints against the Python engine: each hint text runs natively
// and as Python (cairo-lang's own text through the embedded interpreter and our starkware.*
// helper modules) on the same generated VM states, and the two must agree exactly: the same
// memory afterwards, the same scope variables, and an error in one exactly when the other fails.
//
// States mix random values with the edges where big-integer code goes wrong: 0, 1, p - 1,
// (p ± 1) / 2, 2^64, 2^127, 2^128 - 1, 2^128, 2^250, 2^251, values that read as negative.

#include "HintDifferential.h"
#include "HintDifferentialCases.h"

using namespace proofdesk::cairo;
using namespace proofdesk::test;
using namespace proofdesk::test::differential;

class CairoHintDifferentialTest : public QObject {
    Q_OBJECT

private slots:
    void nativeAndPythonAgree_data() {
        QTest::addColumn<int>("index");
        const auto all = cases();
        for (std::size_t i = 0; i < all.size(); ++i) {
            QTest::newRow(all[i].label) << static_cast<int>(i);
        }
    }

    void nativeAndPythonAgree() {
        QFETCH(int, index);
        const HintCase hint = cases()[static_cast<std::size_t>(index)];
        QVERIFY2(HintProcessor::hasNativeImplementation(hint.code), "the hint is not native");
        int succeeded = 0;
        QCOMPARE(disagreements(hint, static_cast<std::uint64_t>(index + 1), &succeeded), 0);
        // Generated states that always fail would test nothing but the error path.
        QVERIFY2(succeeded >= hint.minSucceeded,
                 qPrintable(QStringLiteral("only %1 states ran without an error").arg(succeeded)));
    }

    // Each case as a program of our own run end to end by the runner, natively (cairoVm=rust)
    // and with every hint as Python: the same memory, or an error in both.
    void casesRunAsProgramsAgree_data() { nativeAndPythonAgree_data(); }
    void casesRunAsProgramsAgree() {
        QFETCH(int, index);
        const HintCase hint = cases()[static_cast<std::size_t>(index)];
        int succeeded = 0;
        int failures = 0;
        for (int state = 0; state < kProgramStatesPerHint; ++state) {
            const std::uint64_t seed = 1000003ULL * static_cast<std::uint64_t>(index + 1) +
                                       static_cast<std::uint64_t>(state);
            const Outcome native = runAsProgram(hint, HintExecution::NativeOnly, seed);
            const Outcome python = runAsProgram(hint, HintExecution::PythonOnly, seed);
            const std::string diff = differences(native, python);
            if (!diff.empty()) {
                ++failures;
                qWarning("state %d (seed %llu) differs:\n%s", state,
                         static_cast<unsigned long long>(seed), diff.c_str());
            }
            succeeded += native.error ? 0 : 1;
        }
        QCOMPARE(failures, 0);
        QVERIFY2(hint.minSucceeded == 0 || succeeded > 0, "no state ran to the end");
    }

    // Every native hint simple enough to derive its states from its text alone.
    void derivedCasesAgree() {
        int swept = 0;
        int exercised = 0; // hints with at least one state that ran without an error
        int failures = 0;
        std::set<std::string> exercisedCodes;
        std::uint64_t salt = 7777;
        for (const std::string& code : HintRegistry::instance().codes()) {
            const auto hint = derivedCase(code);
            if (!hint) {
                continue;
            }
            ++swept;
            int succeeded = 0;
            const int differing = disagreements(*hint, ++salt, &succeeded);
            if (differing) {
                ++failures;
                qWarning("derived case disagrees in %d states:\n%s", differing, code.c_str());
            }
            exercised += succeeded > 0 ? 1 : 0;
            if (succeeded > 0) {
                exercisedCodes.insert(code);
            }
            if (succeeded == 0 && qEnvironmentVariableIsSet("PROOFDESK_SWEEP_DEBUG")) {
                const Outcome outcome = runOnce(*hint, HintExecution::NativeOnly, 1);
                qInfo("never ran to the end (%s):\n%s", outcome.error.value_or("").c_str(),
                      code.c_str());
            }
        }
        std::set<std::string> covered = exercisedCodes;
        for (const HintCase& hint : cases()) {
            covered.insert(hint.code);
            covered.insert(hint.before.begin(), hint.before.end());
        }
        qInfo("derived cases: %d hints swept, %d of them with states that ran to the end; with the "
              "hand-written cases, %zu of the %zu native hint texts are checked against Python",
              swept, exercised, covered.size(), HintRegistry::instance().codes().size());
        if (qEnvironmentVariableIsSet("PROOFDESK_SWEEP_DEBUG")) {
            for (const std::string& code : HintRegistry::instance().codes()) {
                if (!covered.count(code)) {
                    qInfo("not in a differential case:\n%s\n", code.c_str());
                }
            }
        }
        QCOMPARE(failures, 0);
        QVERIFY(exercised >= 70);
    }

private:
    static int disagreements(const HintCase& hint, std::uint64_t salt, int* succeeded) {
        int failures = 0;
        for (int state = 0; state < kStatesPerHint; ++state) {
            const std::uint64_t seed = 1000003ULL * salt + static_cast<std::uint64_t>(state);
            const Outcome native = runOnce(hint, HintExecution::NativeOnly, seed);
            const Outcome python = runOnce(hint, HintExecution::PythonOnly, seed);
            const std::string diff = differences(native, python, hint.nativeLocalsOnly);
            if (!diff.empty()) {
                ++failures;
                qWarning("%s: state %d (seed %llu) differs:\n%s", hint.label, state,
                         static_cast<unsigned long long>(seed), diff.c_str());
            }
            *succeeded += native.error ? 0 : 1;
        }
        return failures;
    }
};

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    CairoHintDifferentialTest test;
    const int failures = QTest::qExec(&test, argc, argv);
    Fixture::execution = HintExecution::NativeOnly;
    return failures;
}
#include "tst_cairo_hint_differential.moc"
