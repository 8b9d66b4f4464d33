// The console driven as a user would, against the embedded server: sign in with a fresh wallet
// (keychain replaced by the in-memory seam), mint a key, run a trace-generation job with the
// sample program and download its PIE, fill and close a bucket and watch its tree complete, run
// a program whose own Python hint reads its input file, and see bad uploads refused in the banner.
#include "ConsoleHarness.h"
#include "TestPrograms.h"

#include "client/Wallet.h"
#include "models/ApiKeyModel.h"
#include "models/BucketModel.h"
#include "models/ProofQueryModel.h"
#include "ui/AggregationTreeView.h"
#include "ui/ProofJobsPage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialog>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace proofdesk;
using test::answerConfirmation;
using test::child;
using test::click;

namespace {

QString samplePath(const char* name) {
    return QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/") + QLatin1String(name);
}

} // namespace

class ConsoleFlowTest : public QObject {
    Q_OBJECT
private slots:
    void newUserSignsInRunsAJobAndClosesABucket() {
        test::ConsoleHarness console;
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        Journey journey{console, window, nullptr, nullptr, nullptr};
        for (const auto step : {&ConsoleFlowTest::signInWithANewWalletAndMintAKey,
                                &ConsoleFlowTest::traceTheSampleAndDownloadItsPie,
                                &ConsoleFlowTest::closeABucketWithAMockedMember,
                                &ConsoleFlowTest::pythonHintsForARefusalAndForAFailure,
                                &ConsoleFlowTest::badUploadsAreRefusedInTheBanner}) {
            (this->*step)(journey);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    // A real proof by the embedded server's own prover: progress while proving, then how it was
    // made, and the proof artifact verified here.
    void aProofShowsItsProgressThenItsParametersAndVerifiesHere() {
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("a 2^14-step proof takes minutes unoptimised under AddressSanitizer; the release "
              "build runs this case (the prover's own suites run under the sanitizers)");
#endif
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("prover")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(QStringLiteral("proofJobsPageWidget"));

        // A countdown of 2·8191 + 2 = 2^14 steps on layout plain: seconds of proving.
        QTemporaryDir folder;
        const QString programPath = folder.filePath(QStringLiteral("countdown.json"));
        {
            QFile program(programPath);
            QVERIFY(program.open(QIODevice::WriteOnly));
            program.write(
                QByteArray::fromStdString(test::Asm::countdown(8191).proofModeProgram().dump()));
        }
        child<QComboBox>(&window, "submissionKindComboBox")->setCurrentIndex(0); // core-query
        child<QLineEdit>(&window, "programPathLineEdit")->setText(programPath);
        child<QComboBox>(&window, "resultComboBox")
            ->setCurrentText(QStringLiteral("PROOF_GENERATION"));
        child<QComboBox>(&window, "layoutComboBox")->setCurrentText(QStringLiteral("plain"));
        child<QCheckBox>(&window, "mockFactHashCheckBox")->setChecked(false);
        click(&window, "submitPushButton");
        auto* table = child<QTableView>(&window, "proofQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        table->selectRow(0);

        auto* progress = child<QProgressBar>(&window, "proofProgressBar");
        QTRY_VERIFY_WITH_TIMEOUT(progress->isVisible(), 60000);
        QVERIFY2(progress->format().startsWith(QStringLiteral("Proving: ")),
                 qPrintable(progress->format()));
        QVERIFY(progress->format().contains(QStringLiteral("elapsed")));
        // The percentage reads as one sign ("7%"), not "7%%" (issue #47).
        QVERIFY2(progress->text().contains(QStringLiteral("% ·")) &&
                     !progress->text().contains(QStringLiteral("%%")),
                 qPrintable(progress->text()));
        QTRY_COMPARE_WITH_TIMEOUT(
            table->model()->index(0, models::ProofQueryModel::StatusColumn).data().toString(),
            QStringLiteral("DONE"), 120000);
        QTRY_VERIFY(!progress->isVisible());

        // How the proof was made: our prover, the test server's 32-bit profile.
        auto* info = child<QLabel>(&window, "proofInfoLabel");
        QTRY_VERIFY_WITH_TIMEOUT(info->isVisible(), 10000);
        QVERIFY2(info->text().contains(QStringLiteral("Proved by Proofdesk")),
                 qPrintable(info->text()));
        QVERIFY(info->text().contains(QStringLiteral("32 bits of security")));
        // The server's default profile (issue #48).
        QVERIFY2(info->text().contains(QStringLiteral("optimized for time")),
                 qPrintable(info->text()));
        QVERIFY(info->text().contains(QStringLiteral("FRI steps")));

        // Verify proof.json here; other artifacts cannot be verified.
        auto* artifacts = child<QListWidget>(&window, "artifactsListWidget");
        auto* verify = child<QPushButton>(&window, "verifyArtifactPushButton");
        artifacts->setCurrentItem(
            artifacts->findItems(QStringLiteral("metadata.json"), Qt::MatchExactly).first());
        QVERIFY(!verify->isEnabled());
        artifacts->setCurrentItem(
            artifacts->findItems(QStringLiteral("proof.json"), Qt::MatchExactly).first());
        QVERIFY(verify->isEnabled());
        click(&window, "verifyArtifactPushButton");
        auto* verdict = child<QLabel>(&window, "verificationLabel");
        QTRY_VERIFY_WITH_TIMEOUT(verdict->text().contains(QStringLiteral("Valid")), 30000);
        QVERIFY2(verdict->text().contains(QStringLiteral("plain, 32 bits of security")),
                 qPrintable(verdict->text()));

        // Search: nothing matches, and the detail no longer shows the hidden query; an id
        // prefix typed in lower case finds it again.
        const QString id =
            table->model()->index(0, models::ProofQueryModel::IdColumn).data().toString();
        auto* search = child<QLineEdit>(&window, "searchLineEdit");
        search->setText(QStringLiteral("no-such-query"));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 0, 10000);
        QTRY_VERIFY(child<QLabel>(&window, "queryTitleLabel")
                        ->text()
                        .startsWith(QStringLiteral("Select a query")));
        QVERIFY(!verdict->isVisible());
        QCOMPARE(artifacts->count(), 0);
        search->setText(id.left(20).toLower());
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
    }

    void signOutReturnsTheKeysPageToSignedOut() {
        test::ConsoleHarness console;
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy signedIn(&console.session, &client::WalletSession::signedIn);
        console.session.signIn(client::Wallet::generate());
        QVERIFY(signedIn.wait(10000));
        window.showPage(QStringLiteral("keysPageWidget"));
        QVERIFY(child<QPushButton>(&window, "signOutPushButton")->isEnabled());
        click(&window, "signOutPushButton");
        QVERIFY(child<QLabel>(&window, "accountLabel")
                    ->text()
                    .startsWith(QStringLiteral("Not signed in")));
        QCOMPARE(child<QTableView>(&window, "apiKeysTableView")->model()->rowCount(), 0);
        QVERIFY(!child<QPushButton>(&window, "mintKeyPushButton")->isEnabled());
    }

private:
    // What the journey's steps share: the window, the jobs page, its table and the spy on its
    // finished jobs.
    struct Journey {
        test::ConsoleHarness& console;
        ui::MainWindow& window;
        ui::ProofJobsPage* jobs = nullptr;
        QTableView* table = nullptr;
        std::unique_ptr<QSignalSpy> finished;
    };

    void signInWithANewWalletAndMintAKey(Journey& j) {
        test::ConsoleHarness& console = j.console;
        ui::MainWindow& window = j.window;
        // --- Sign in with a freshly created wallet.
        window.showPage(QStringLiteral("keysPageWidget"));
        click(&window, "signInPushButton");
        QPointer<QDialog> dialog;
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("signInDialog"))));
        click(dialog, "createWalletPushButton");
        const QString address = child<QLabel>(dialog, "newWalletAddressLabel")->text();
        QVERIFY(address.startsWith(QStringLiteral("0x")) && address.size() == 42);
        click(dialog, "signInNewWalletPushButton");
        QTRY_VERIFY_WITH_TIMEOUT(dialog.isNull(), 10000); // closed on success
        QVERIFY(child<QLabel>(&window, "accountLabel")->text().contains(address));
        QVERIFY(console.secrets.entries().contains(QStringLiteral("wallet/") + address));
        auto* keys = child<QTableView>(&window, "apiKeysTableView");
        QTRY_COMPARE_WITH_TIMEOUT(keys->model()->rowCount(), 1, 10000);
        // The project's first key became the console's key, shown as in use.
        QTRY_COMPARE(console.proofs.apiKey(),
                     keys->model()->index(0, models::ApiKeyModel::KeyColumn).data().toString());
        QCOMPARE(keys->model()->index(0, models::ApiKeyModel::InUseColumn).data().toString(),
                 QStringLiteral("in use"));

        // --- Mint a second key.
        QTest::keyClicks(child<QLineEdit>(&window, "keyNameLineEdit"), QStringLiteral("CI runner"));
        click(&window, "mintKeyPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(keys->model()->rowCount(), 2, 10000);
    }

    void traceTheSampleAndDownloadItsPie(Journey& j) {
        ui::MainWindow& window = j.window;
        // --- A trace-generation job with the sample program, to DONE, and its PIE downloaded.
        window.showPage(QStringLiteral("proofJobsPageWidget"));
        j.jobs = child<ui::ProofJobsPage>(&window, "proofJobsPageWidget");
        ui::ProofJobsPage* jobs = j.jobs;
        QTemporaryDir downloads;
        jobs->setSaveLocationProvider(
            [&downloads](const QString& suggested) { return downloads.filePath(suggested); });
        j.finished = std::make_unique<QSignalSpy>(jobs, &ui::ProofJobsPage::jobFinished);
        QSignalSpy& finished = *j.finished;
        child<QComboBox>(&window, "submissionKindComboBox")->setCurrentIndex(1); // /v1 trace
        QVERIFY(!child<QComboBox>(&window, "resultComboBox")->isVisible());
        child<QLineEdit>(&window, "programPathLineEdit")->setText(samplePath("fibonacci.json"));
        click(&window, "submitPushButton");
        j.table = child<QTableView>(&window, "proofQueriesTableView");
        QTableView* table = j.table;
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            table->model()->index(0, models::ProofQueryModel::StatusColumn).data().toString(),
            QStringLiteral("DONE"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000); // the desktop notification
        QCOMPARE(finished.first().at(1).toString(), QStringLiteral("DONE"));
        table->selectRow(0);
        QVERIFY(child<QLabel>(&window, "stepsTimelineLabel")
                    ->text()
                    .contains(QStringLiteral("TRACE_GENERATION")));
        auto* artifacts = child<QListWidget>(&window, "artifactsListWidget");
        QTRY_VERIFY_WITH_TIMEOUT(
            !artifacts->findItems(QStringLiteral("pie.zip"), Qt::MatchExactly).isEmpty(), 10000);
        artifacts->setCurrentItem(
            artifacts->findItems(QStringLiteral("pie.zip"), Qt::MatchExactly).first());
        QSignalSpy saved(jobs, &ui::ProofJobsPage::artifactSaved);
        click(&window, "downloadArtifactPushButton");
        QVERIFY(saved.wait(10000));
        QFile pie(saved.first().first().toString());
        QVERIFY(pie.open(QIODevice::ReadOnly));
        QVERIFY(pie.read(4) == QByteArray("PK\x03\x04", 4));
        QVERIFY(child<QPushButton>(&window, "copyQueryCurlPushButton")->isEnabled());
    }

    void closeABucketWithAMockedMember(Journey& j) {
        ui::MainWindow& window = j.window;
        QSignalSpy& finished = *j.finished;
        ui::ProofJobsPage* jobs = j.jobs;
        // --- A bucket: create, submit a mocked job into it, close, watch the tree complete.
        window.showPage(QStringLiteral("bucketsPageWidget"));
        child<QSpinBox>(&window, "nodeWidthSpinBox")->setValue(2);
        click(&window, "createBucketPushButton");
        auto* buckets = child<QTableView>(&window, "bucketsTableView");
        QTRY_COMPARE_WITH_TIMEOUT(buckets->model()->rowCount(), 1, 10000);
        QTRY_VERIFY(child<QPushButton>(&window, "useBucketPushButton")->isEnabled());
        click(&window, "useBucketPushButton");
        QVERIFY(jobs->isVisible());
        QVERIFY(!child<QLineEdit>(&window, "bucketIdLineEdit")->text().isEmpty());
        child<QComboBox>(&window, "resultComboBox")
            ->setCurrentText(QStringLiteral("PROOF_VERIFICATION_ON_L1"));
        child<QCheckBox>(&window, "mockFactHashCheckBox")->setChecked(true);
        click(&window, "submitPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 30000);
        QCOMPARE(finished.last().at(1).toString(), QStringLiteral("DONE"));
        window.showPage(QStringLiteral("bucketsPageWidget"));
        buckets->selectRow(0);
        auto* tree = child<ui::AggregationTreeView>(&window, "aggregationTreeView");
        QTRY_COMPARE_WITH_TIMEOUT(tree->levelStatuses().size(), std::size_t{2}, 10000);
        QTRY_VERIFY(child<QPushButton>(&window, "closeBucketPushButton")->isEnabled());
        click(&window, "closeBucketPushButton");
        answerConfirmation(&window, "confirmCloseBucketMessageBox", "confirmPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(
            buckets->model()->index(0, models::BucketModel::StatusColumn).data().toString(),
            QStringLiteral("DONE"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(tree->levelStatuses().back().front(), QStringLiteral("DONE"),
                                  10000);
        QVERIFY(!child<QPushButton>(&window, "closeBucketPushButton")->isEnabled());
    }

    void pythonHintsForARefusalAndForAFailure(Journey& j) {
        ui::MainWindow& window = j.window;
        QSignalSpy& finished = *j.finished;
        QTableView* table = j.table;
        // --- A program whose own hint reads the input file: refused with native hints only, DONE
        // with Python hints.
        window.showPage(QStringLiteral("proofJobsPageWidget"));
        auto* banner = child<QLabel>(&window, "errorBannerLabel");
        child<QComboBox>(&window, "submissionKindComboBox")->setCurrentIndex(0); // core query
        child<QLineEdit>(&window, "bucketIdLineEdit")->clear();
        child<QCheckBox>(&window, "mockFactHashCheckBox")->setChecked(false);
        child<QComboBox>(&window, "resultComboBox")
            ->setCurrentText(QStringLiteral("TRACE_GENERATION"));
        child<QLineEdit>(&window, "programPathLineEdit")
            ->setText(samplePath("sum_of_squares.json"));
        child<QLineEdit>(&window, "inputPathLineEdit")
            ->setText(samplePath("sum_of_squares_input.json"));
        auto* cairoVm = child<QComboBox>(&window, "cairoVmComboBox");
        QVERIFY(cairoVm->isVisible());
        QCOMPARE(cairoVm->currentData().toString(), QStringLiteral("rust"));
        click(&window, "submitPushButton");
        QTRY_VERIFY_WITH_TIMEOUT(
            banner->text().contains(QStringLiteral("INPUT_FILE_NEEDS_CAIRO_VM_PYTHON")), 10000);
        // The console offers the Python engine for the refused submission.
        auto* submitWithPython = child<QPushButton>(&window, "submitWithPythonHintsPushButton");
        QVERIFY(submitWithPython->isVisible());
        click(&window, "submitWithPythonHintsPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 3, 30000);
        QCOMPARE(finished.last().at(1).toString(), QStringLiteral("DONE"));
        QVERIFY(!submitWithPython->isVisible());
        QVERIFY(!banner->isVisible());
        child<QLineEdit>(&window, "inputPathLineEdit")->clear();

        // --- A hint without a native implementation reached while running: the query fails
        // naming it, and "Submit again with Python hints" runs it as Python.
        QTemporaryDir programs;
        const QString ownHint = programs.filePath(QStringLiteral("own_hint.json"));
        {
            nlohmann::json program = test::Asm::writesOutput(9).program({"output"});
            program["hints"] = {{"0",
                                 {{{"code", "squares = [i * i for i in range(4)]"},
                                   {"accessible_scopes", {"__main__", "__main__.main"}},
                                   {"flow_tracking_data",
                                    {{"ap_tracking", {{"group", 0}, {"offset", 0}}},
                                     {"reference_ids", nlohmann::json::object()}}}}}}};
            QFile file(ownHint);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(program.dump()));
        }
        cairoVm->setCurrentIndex(cairoVm->findData(QStringLiteral("rust")));
        child<QLineEdit>(&window, "programPathLineEdit")->setText(ownHint);
        click(&window, "submitPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 4, 30000);
        QCOMPARE(finished.last().at(1).toString(), QStringLiteral("FAILED"));
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            if (table->model()->index(row, models::ProofQueryModel::StatusColumn).data() ==
                QStringLiteral("FAILED")) {
                table->selectRow(row);
            }
        }
        QTRY_VERIFY(child<QLabel>(&window, "errorReasonLabel")
                        ->text()
                        .contains(QStringLiteral("no native implementation")));
        auto* resubmitWithPython = child<QPushButton>(&window, "resubmitWithPythonHintsPushButton");
        QTRY_VERIFY(resubmitWithPython->isVisible());
        click(&window, "resubmitWithPythonHintsPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 5, 30000);
        QCOMPARE(finished.last().at(1).toString(), QStringLiteral("DONE"));
    }

    void badUploadsAreRefusedInTheBanner(Journey& j) {
        ui::MainWindow& window = j.window;
        auto* banner = child<QLabel>(&window, "errorBannerLabel");
        // --- Bad uploads: refused before sending, and refused by the server, both in the banner.
        QTemporaryDir dir;
        const QString words = dir.filePath(QStringLiteral("notes.txt"));
        const QString notAProgram = dir.filePath(QStringLiteral("empty.json"));
        for (const auto& [path, bytes] : {std::pair{words, QByteArray("just words")},
                                          std::pair{notAProgram, QByteArray("{}")}}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(bytes);
        }
        child<QLineEdit>(&window, "bucketIdLineEdit")->clear();
        child<QLineEdit>(&window, "programPathLineEdit")->setText(words);
        click(&window, "submitPushButton");
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("neither JSON nor a zip archive")));
        child<QLineEdit>(&window, "programPathLineEdit")->setText(notAProgram);
        click(&window, "submitPushButton");
        QTRY_VERIFY_WITH_TIMEOUT(banner->text().startsWith(QStringLiteral("The submission was "
                                                                          "refused: ")),
                                 10000);
        QVERIFY(banner->text().contains(QStringLiteral("(400)")));
        QVERIFY(banner->isVisible());
    }
};

QTEST_MAIN(ConsoleFlowTest)
#include "tst_console_flow.moc"
