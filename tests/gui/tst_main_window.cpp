#include "ConsoleHarness.h"
#include "ProofTestData.h"
#include "TestHttp.h"
#include "auth/ApiKeyRegistry.h"
#include "proof/ProofService.h"

#include "client/ProofClient.h"
#include "models/BucketModel.h"
#include "models/ChainNames.h"
#include "models/ProofQueryModel.h"
#include "models/RequestLogModel.h"
#include "models/RequestModels.h"
#include "models/ValueReading.h"
#include "ui/ActionDagView.h"
#include "ui/JsonView.h"
#include "ui/MainWindow.h"
#include "ui/ProofJobsPage.h"
#include "ui/SettingsDialog.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace proofdesk;

namespace {

api::ProofQuery query(const std::string& id, const std::string& status) {
    api::ProofQuery q;
    q.id = id;
    q.status = status;
    q.createdAt = "2026-11-22T10:00:00.000Z";
    return q;
}

// The Settings dialog as the toolbar opens it; null if it does not show.
ui::SettingsDialog* openSettings(ui::MainWindow& window) {
    test::child<QAction>(&window, "settingsAction")->trigger();
    ui::SettingsDialog* dialog = nullptr;
    const bool shown = QTest::qWaitFor(
        [&] { return (dialog = window.findChild<ui::SettingsDialog*>()) && dialog->isVisible(); });
    return shown ? dialog : nullptr;
}

} // namespace

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_main_window")); }

    void settingsReopenWithWhatWasSavedAndChainUrlsApplyAtOnce() {
        test::ConsoleHarness console;
        test::HarnessServerControl control(console.server);
        ui::MainWindow window(console.localParts(control));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString rpc = QStringLiteral("http://127.0.0.1:9");
        ui::SettingsDialog* dialog = openSettings(window);
        QVERIFY(dialog);
        test::child<QSpinBox>(dialog, "pollIntervalSpinBox")->setValue(750);
        test::child<QPlainTextEdit>(dialog, "chainRpcPlainTextEdit")
            ->setPlainText(QStringLiteral("11155111=") + rpc);
        dialog->accept();
        QTRY_VERIFY(!window.findChild<ui::SettingsDialog*>());
        // The running server uses the URL at once: no restart.
        QCOMPARE(
            console.server.server().requests().settings().chains.rpcUrl(QStringLiteral("11155111")),
            std::optional<QString>(rpc));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("chain RPC URLs")));

        // Reopened, the dialog shows what was saved, so saving again keeps it.
        dialog = openSettings(window);
        QVERIFY(dialog);
        QCOMPARE(test::child<QSpinBox>(dialog, "pollIntervalSpinBox")->value(), 750);
        QCOMPARE(test::child<QPlainTextEdit>(dialog, "chainRpcPlainTextEdit")->toPlainText(),
                 QStringLiteral("11155111=") + rpc);
        dialog->accept();
        QTRY_VERIFY(!window.findChild<ui::SettingsDialog*>());
        QSettings saved;
        QCOMPARE(ui::ConsoleSettings::load(saved).chainRpcUrls.at(QStringLiteral("11155111")), rpc);

        // Saving settings whose prover never changed restarts nothing.
        QVERIFY(control.proversSet.empty());

        // A new profile asks to restart; Later keeps the console running.
        dialog = openSettings(window);
        QVERIFY(dialog);
        auto* profile = test::child<QComboBox>(dialog, "profileComboBox");
        profile->setCurrentIndex(profile->findData(QStringLiteral("Remote")));
        test::child<QLineEdit>(dialog, "requestUrlLineEdit")
            ->setText(QStringLiteral("http://127.0.0.1:4"));
        test::child<QLineEdit>(dialog, "proofUrlLineEdit")
            ->setText(QStringLiteral("http://127.0.0.1:5"));
        test::child<QLineEdit>(dialog, "authUrlLineEdit")
            ->setText(QStringLiteral("http://127.0.0.1:6"));
        dialog->accept();
        QMessageBox* ask = nullptr;
        QTRY_VERIFY((ask = window.findChild<QMessageBox*>(QStringLiteral("restartMessageBox"))) &&
                    ask->isVisible());
        // No restart is wired in this window, so the button says so by being disabled.
        QVERIFY(!test::child<QPushButton>(ask, "restartNowPushButton")->isEnabled());
        test::click(ask, "restartLaterPushButton");
        QTRY_VERIFY(!window.findChild<QMessageBox*>(QStringLiteral("restartMessageBox")));
        QVERIFY(window.isVisible());
        QSettings().clear();
    }

    void aRemoteProfileReconnectsToOneServerUrl() {
        test::ConsoleHarness console;
        ui::ConsoleParts parts = console.parts();
        parts.settings.profile = QStringLiteral("Remote");
        parts.settings.requestUrl = QStringLiteral("http://127.0.0.1:1");
        parts.settings.proofUrl = QStringLiteral("http://127.0.0.1:2");
        parts.settings.authUrl = QStringLiteral("http://127.0.0.1:3");
        parts.endpoints = {parts.settings.requestUrl, parts.settings.proofUrl,
                           parts.settings.authUrl, QString()};
        std::vector<ui::ServerEndpoints> reconnected;
        parts.reconnect = [&reconnected](const ui::ServerEndpoints& moved) {
            reconnected.push_back(moved);
        };
        ui::MainWindow window(parts);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        test::child<QAction>(&window, "settingsAction")->trigger();
        ui::SettingsDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<ui::SettingsDialog*>()) && dialog->isVisible());
        auto* one = test::child<QCheckBox>(dialog, "oneServerCheckBox");
        QVERIFY(!one->isChecked()); // three different URLs
        one->setChecked(true);
        QVERIFY(!test::child<QLineEdit>(dialog, "proofUrlLineEdit")->isEnabled());
        test::child<QLineEdit>(dialog, "requestUrlLineEdit")->setText(console.server.url());
        QCOMPARE(test::child<QLineEdit>(dialog, "authUrlLineEdit")->text(), console.server.url());
        dialog->accept();
        QTRY_COMPARE(reconnected.size(), size_t(1));
        QCOMPARE(reconnected[0].requestUrl, console.server.url());
        QCOMPARE(reconnected[0].proofUrl, console.server.url());
        QCOMPARE(reconnected[0].authUrl, console.server.url());
        QCOMPARE(test::child<QLabel>(&window, "proofUrlLabel")->text(), console.server.url());
        QVERIFY(window.windowTitle().contains(console.server.url()));
        QVERIFY(!window.findChild<QMessageBox*>(QStringLiteral("restartMessageBox")));
        QSettings().clear();
    }

    void theLayoutComesBackAfterARestart() {
        test::ConsoleHarness console;
        ui::ConsoleParts parts = console.parts();
        parts.rememberLayout = true;
        QList<int> navigationSizes;
        int resultWidth = 0;
        {
            ui::MainWindow window(parts);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.resize(1100, 700);
            auto* main = test::child<QSplitter>(&window, "mainSplitter");
            main->setSizes({320, 780});
            navigationSizes = main->sizes();
            auto* header =
                test::child<QTableView>(&window, "proofQueriesTableView")->horizontalHeader();
            header->resizeSection(models::ProofQueryModel::ResultColumn, 333);
            resultWidth = header->sectionSize(models::ProofQueryModel::ResultColumn);
            window.close();
        }
        QCOMPARE(resultWidth, 333);
        ui::MainWindow again(parts);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.size(), QSize(1100, 700));
        QCOMPARE(test::child<QSplitter>(&again, "mainSplitter")->sizes(), navigationSizes);
        QCOMPARE(test::child<QTableView>(&again, "proofQueriesTableView")
                     ->horizontalHeader()
                     ->sectionSize(models::ProofQueryModel::ResultColumn),
                 333);
        QSettings().clear();
    }

    void settingsDialogChecksChainRpcUrls() {
        ui::ConsoleSettings current;
        current.chainRpcUrls[QStringLiteral("1")] = QStringLiteral("https://rpc.example.org");
        ui::SettingsDialog dialog(current);
        auto* text = dialog.findChild<QPlainTextEdit*>(QStringLiteral("chainRpcPlainTextEdit"));
        auto* banner = dialog.findChild<QLabel*>(QStringLiteral("settingsErrorBannerLabel"));
        QCOMPARE(text->toPlainText(), QStringLiteral("1=https://rpc.example.org"));
        text->setPlainText(QStringLiteral("137=http://127.0.0.1:8545"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(banner->text().contains(QStringLiteral("not a chain id")));
        text->setPlainText(QStringLiteral("11155111=ftp://127.0.0.1"));
        dialog.accept();
        QVERIFY(banner->text().contains(QStringLiteral("not an http(s) URL")));
        text->setPlainText(
            QStringLiteral("11155111=http://127.0.0.1:8545\n\n1 = https://a.example"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const std::map<QString, QString> expected{
            {QStringLiteral("1"), QStringLiteral("https://a.example")},
            {QStringLiteral("11155111"), QStringLiteral("http://127.0.0.1:8545")}};
        QCOMPARE(dialog.settings().chainRpcUrls, expected);
    }

    void settingsDialogChecksTheProver() {
        QTemporaryDir dir;
        const QString bootloader = dir.filePath(QStringLiteral("bootloader.json"));
        const QString notExecutable = dir.filePath(QStringLiteral("cpu_air_prover"));
        const QString executable = dir.filePath(QStringLiteral("cpu_air_verifier"));
        for (const QString& path : {bootloader, notExecutable, executable}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("{}");
        }
        QFile::setPermissions(executable, QFile::ReadOwner | QFile::ExeOwner);
        ui::ConsoleSettings current;
        current.prover.bootloaderProgram = bootloader;
        ui::SettingsDialog dialog(current);
        auto* engine = test::child<QComboBox>(&dialog, "proverEngineComboBox");
        auto* verifier = test::child<QComboBox>(&dialog, "verifierComboBox");
        auto* stoneProver = test::child<QLineEdit>(&dialog, "stoneProverLineEdit");
        auto* stoneVerifier = test::child<QLineEdit>(&dialog, "stoneVerifierLineEdit");
        auto* bootloaderEdit = test::child<QLineEdit>(&dialog, "bootloaderProgramLineEdit");
        auto* banner = test::child<QLabel>(&dialog, "settingsErrorBannerLabel");
        // What is saved shows; an engine never chosen shows as the builtin one.
        QCOMPARE(engine->currentData().toString(), QStringLiteral("builtin"));
        QCOMPARE(bootloaderEdit->text(), bootloader);

        const auto refused = [&](const QString& reason) {
            dialog.accept();
            return dialog.result() == int(QDialog::Rejected) && banner->text().contains(reason);
        };
        engine->setCurrentIndex(engine->findData(QStringLiteral("stone")));
        QVERIFY(refused(QStringLiteral("needs the path of Stone's cpu_air_prover")));
        stoneProver->setText(notExecutable);
        QVERIFY(refused(QStringLiteral("is not an executable file")));
        stoneProver->setText(executable);
        verifier->setCurrentIndex(verifier->findData(QStringLiteral("stone")));
        QVERIFY(refused(QStringLiteral("needs the path of Stone's cpu_air_verifier")));
        stoneVerifier->setText(executable);
        bootloaderEdit->setText(dir.filePath(QStringLiteral("missing.json")));
        QVERIFY(refused(QStringLiteral("is not a readable file")));
        bootloaderEdit->setText(bootloader);
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        QCOMPARE(dialog.settings().prover,
                 (ui::ProverChoice{QStringLiteral("stone"), QStringLiteral("stone"), executable,
                                   executable, bootloader}));

        // A deployment proves with its own prover: on Remote the fields are off and not checked.
        ui::SettingsDialog remote(current);
        auto* profile = test::child<QComboBox>(&remote, "profileComboBox");
        profile->setCurrentIndex(profile->findData(QStringLiteral("Remote")));
        QVERIFY(!test::child<QComboBox>(&remote, "proverEngineComboBox")->isEnabled());
        QVERIFY(!test::child<QLineEdit>(&remote, "bootloaderProgramLineEdit")->isEnabled());
    }

    void aNewProverRestartsTheEmbeddedServerAndIsSaved() {
        QTemporaryDir dir;
        const QString bootloader = dir.filePath(QStringLiteral("bootloader.json"));
        QFile file(bootloader);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        test::ConsoleHarness console;
        test::HarnessServerControl control(console.server);
        ui::MainWindow window(console.localParts(control));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ui::SettingsDialog* dialog = openSettings(window);
        QVERIFY(dialog);
        auto* engine = test::child<QComboBox>(dialog, "proverEngineComboBox");
        engine->setCurrentIndex(engine->findData(QStringLiteral("mock")));
        test::child<QLineEdit>(dialog, "bootloaderProgramLineEdit")->setText(bootloader);
        dialog->accept();
        QTRY_VERIFY(!window.findChild<ui::SettingsDialog*>());
        const ui::ProverChoice expected{
            QStringLiteral("mock"), QStringLiteral("builtin"), {}, {}, bootloader};
        QCOMPARE(control.proversSet.size(), std::size_t(1));
        QCOMPARE(control.proversSet.front(), expected);
        QVERIFY(window.statusBar()->currentMessage().contains(
            QStringLiteral("restarted with the new prover")));
        // Saved where proofdesk serve reads it.
        QSettings saved;
        QCOMPARE(saved.value(QStringLiteral("prover/engine")).toString(), QStringLiteral("mock"));
        QCOMPARE(saved.value(QStringLiteral("prover/bootloaderProgram")).toString(), bootloader);
        QVERIFY(!saved.contains(QStringLiteral("prover/stoneProver")));

        // Reopened it shows what was saved; saving it unchanged restarts nothing.
        dialog = openSettings(window);
        QVERIFY(dialog);
        QCOMPARE(test::child<QComboBox>(dialog, "proverEngineComboBox")->currentData().toString(),
                 QStringLiteral("mock"));
        dialog->accept();
        QTRY_VERIFY(!window.findChild<ui::SettingsDialog*>());
        QCOMPARE(control.proversSet.size(), std::size_t(1));
        QSettings().clear();
    }

    void requestModelsAndDagFollowTheirRecords() {
        models::GrowOrderModel orders;
        QAbstractItemModelTester tester(&orders);
        api::GrowOrder order;
        order.internalId = "g1";
        order.startBlockNumber = 100;
        order.nextFromBlockNumber = 150;
        order.finishBlockNumber = 199;
        orders.update({order});
        QCOMPARE(orders.index(0, models::GrowOrderModel::ProgressColumn)
                     .data(models::GrowOrderModel::ProgressRole)
                     .toInt(),
                 50);
        QCOMPARE(orders.index(0, models::GrowOrderModel::ProgressColumn).data().toString(),
                 QStringLiteral("100–199, next 150 (50%)"));
        order.finishBlockNumber.reset();
        QCOMPARE(models::GrowOrderModel::progressPercent(order), -1);

        // The DAG puts an action one column right of its deepest dependency.
        std::vector<api::RequestAction> actions(4);
        for (int i = 0; i < 4; ++i) {
            actions[std::size_t(i)].index = i;
            actions[std::size_t(i)].method = {{"name", "step"}};
        }
        actions[1].dependsOn = {0};
        actions[2].dependsOn = {1};
        actions[3].dependsOn = {0, 2};
        actions[3].status = "FAILED";
        ui::ActionDagView dag;
        dag.setActions(actions);
        QCOMPARE(dag.statuses(),
                 (std::vector<QString>{QStringLiteral("PENDING"), QStringLiteral("PENDING"),
                                       QStringLiteral("PENDING"), QStringLiteral("FAILED")}));
        QCOMPARE(dag.sizeHint().width(), 2 * 16 + 4 * 200 + 3 * 56); // four columns
    }

    void provenValuesReadAsPeopleReadThem() {
        QCOMPARE(models::hexToDecimal(QStringLiteral("0x0")), QStringLiteral("0"));
        QCOMPARE(models::hexToDecimal(QStringLiteral("0xde0b6b3a7640000")),
                 QStringLiteral("1000000000000000000"));
        QCOMPARE(models::hexToDecimal(QStringLiteral("0x") + QString(64, QLatin1Char('f'))),
                 QStringLiteral("115792089237316195423570985008687907853269984665640564039457584007"
                                "913129639935")); // 2^256 - 1
        QVERIFY(models::hexToDecimal(QStringLiteral("0xfg")).isEmpty());
        QVERIFY(models::hexToDecimal(QStringLiteral("12")).isEmpty());
        QCOMPARE(models::weiToEth(QStringLiteral("1000000000000000000")), QStringLiteral("1 ETH"));
        QCOMPARE(models::weiToEth(QStringLiteral("1500000000000000000")),
                 QStringLiteral("1.5 ETH"));
        QCOMPARE(models::weiToEth(QStringLiteral("1")), QStringLiteral("0.000000000000000001 ETH"));
        QCOMPARE(models::weiToEth(QStringLiteral("0")), QStringLiteral("0 ETH"));
        // Field elements as cairo-run prints output: P - 1 is -1, P itself is no felt.
        QCOMPARE(models::feltToDecimal(QStringLiteral("0x59")), QStringLiteral("89"));
        QCOMPARE(models::feltToDecimal(QStringLiteral(
                     "0x800000000000011000000000000000000000000000000000000000000000000")),
                 QStringLiteral("-1"));
        // The boundary: (P - 1) / 2 is the largest positive, (P + 1) / 2 the smallest negative.
        QCOMPARE(models::feltToDecimal(QStringLiteral(
                     "0x400000000000008800000000000000000000000000000000000000000000000")),
                 QStringLiteral("1809251394333065606848661391547535052811"
                                "553607665798349986546028067936010240"));
        QCOMPARE(models::feltToDecimal(QStringLiteral(
                     "0x400000000000008800000000000000000000000000000000000000000000001")),
                 QStringLiteral("-1809251394333065606848661391547535052811"
                                "553607665798349986546028067936010240"));
        QVERIFY(
            models::feltToDecimal(
                QStringLiteral("0x800000000000011000000000000000000000000000000000000000000000001"))
                .isEmpty());
        QCOMPARE(models::chainLabel(QStringLiteral("11155111")),
                 QStringLiteral("Sepolia (11155111)"));
        QCOMPARE(models::chainLabel(QStringLiteral("999")), QStringLiteral("999"));

        models::ProvenValueModel values;
        const auto row = [](const char* kind, const char* name, const char* value) {
            api::ProvenValue proven;
            proven.kind = kind;
            proven.name = name;
            proven.value = value;
            proven.blockNumber = 5;
            proven.account = "0x00000000000000000000000000000000000000aa";
            return proven;
        };
        values.update({row("account", "Balance", "0x14d1120d7b160000"),
                       row("header", "Timestamp", "0x6553f100"), row("header", "Number", "0x2a"),
                       row("header", "StateRoot",
                           "0x"
                           "11")});
        const auto readsAs = [&values](int r) {
            return values.index(r, models::ProvenValueModel::ReadsAsColumn).data().toString();
        };
        QCOMPARE(readsAs(0), QStringLiteral("1.5 ETH"));
        QCOMPARE(readsAs(1), QStringLiteral("2023-11-14 22:13:20 UTC"));
        QCOMPARE(readsAs(2), QStringLiteral("42"));
        QCOMPARE(readsAs(3), QString()); // a root is not a number to read
        QCOMPARE(values.index(0, models::ProvenValueModel::ValueColumn).data().toString(),
                 QStringLiteral("0x14d1120d7b160000")); // the raw value stays
    }

    void requestLogModelOnlyAppendsAndTrims() {
        models::RequestLogModel model(3);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        for (int i = 0; i < 5; ++i) {
            model.append({QDateTime::currentDateTimeUtc(), QStringLiteral("GET"),
                          QStringLiteral("/q/%1").arg(i), 200 + i, 1.5});
        }
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, models::RequestLogModel::PathColumn).data().toString(),
                 QStringLiteral("/q/2"));
        QCOMPARE(model.index(2, models::RequestLogModel::StatusColumn).data().toInt(), 204);
    }

    void modelAppliesPagesIncrementally() {
        models::ProofQueryModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.update({query("c", "RECEIVED"), query("b", "IN_PROGRESS"), query("a", "DONE")});
        QCOMPARE(model.rowCount(), 3);
        int inserted = 0, changed = 0, removed = 0;
        connect(&model, &QAbstractItemModel::rowsInserted, this, [&] { ++inserted; });
        connect(&model, &QAbstractItemModel::dataChanged, this, [&] { ++changed; });
        connect(&model, &QAbstractItemModel::rowsRemoved, this, [&] { ++removed; });
        // A new query on top, one finished, one gone: one insert, one change, one removal.
        model.update({query("d", "RECEIVED"), query("c", "DONE"), query("b", "IN_PROGRESS")});
        QCOMPARE(inserted, 1);
        QCOMPARE(changed, 1);
        QCOMPARE(removed, 1);
        QCOMPARE(model.index(0, models::ProofQueryModel::IdColumn).data().toString(),
                 QStringLiteral("d"));
        QCOMPARE(model.index(1, models::ProofQueryModel::StatusColumn).data().toString(),
                 QStringLiteral("DONE"));
        // The same page again changes nothing.
        model.update({query("d", "RECEIVED"), query("c", "DONE"), query("b", "IN_PROGRESS")});
        QCOMPARE(changed, 1);
        // A reorder moves rows instead of rebuilding.
        model.update({query("b", "IN_PROGRESS"), query("d", "RECEIVED"), query("c", "DONE")});
        QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("b"));
        QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("c"));
    }

    void modelCoalescesRunsOfInsertsAndChanges() {
        models::BucketModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto bucket = [](const std::string& id, const std::string& status) {
            api::ProofBucket b;
            b.id = id;
            b.status = status;
            return b;
        };
        model.update({bucket("c", "OPEN"), bucket("b", "OPEN"), bucket("a", "OPEN")});
        QList<std::pair<int, int>> inserted, changed;
        connect(&model, &QAbstractItemModel::rowsInserted, this,
                [&](const QModelIndex&, int first, int last) {
                    inserted.append({first, last});
                });
        connect(&model, &QAbstractItemModel::dataChanged, this,
                [&](const QModelIndex& from, const QModelIndex& to) {
                    changed.append({from.row(), to.row()});
                });
        // Three new on top: one insert; two neighbours closed: one change of two rows.
        model.update({bucket("f", "OPEN"), bucket("e", "OPEN"), bucket("d", "OPEN"),
                      bucket("c", "DONE"), bucket("b", "DONE"), bucket("a", "OPEN")});
        QCOMPARE(inserted, (QList<std::pair<int, int>>{{0, 2}}));
        QCOMPARE(changed, (QList<std::pair<int, int>>{{3, 4}}));
        QCOMPARE(model.index(3, models::BucketModel::StatusColumn).data().toString(),
                 QStringLiteral("DONE"));
        QCOMPARE(model.index(5, models::BucketModel::IdColumn).data().toString(),
                 QStringLiteral("a"));
    }

    void proofJobsPageSubmitsAndFollowsAJob() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("ui")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* navigation = window.findChild<QListWidget*>(QStringLiteral("navigationListWidget"));
        QCOMPARE(navigation->item(0)->text(), QStringLiteral("Proof jobs"));
        QCOMPARE(navigation->count(), 7);

        QTemporaryDir dir;
        const QString notAProgram = dir.filePath(QStringLiteral("notes.txt"));
        {
            QFile file(notAProgram);
            file.open(QIODevice::WriteOnly);
            file.write("just words");
        }
        auto* path = window.findChild<QLineEdit*>(QStringLiteral("programPathLineEdit"));
        auto* submit = window.findChild<QPushButton*>(QStringLiteral("submitPushButton"));
        auto* banner = window.findChild<QLabel*>(QStringLiteral("errorBannerLabel"));
        // Validation before sending: neither JSON nor a zip.
        path->setText(notAProgram);
        QTest::mouseClick(submit, Qt::LeftButton);
        QVERIFY(banner->isVisible());
        QVERIFY(banner->text().contains(QStringLiteral("neither JSON nor a zip archive")));

        const QString program = dir.filePath(QStringLiteral("program.json"));
        {
            QFile file(program);
            file.open(QIODevice::WriteOnly);
            file.write(QByteArray::fromStdString(test::outputProgram(21)));
        }
        path->setText(program);
        window.findChild<QComboBox*>(QStringLiteral("resultComboBox"))
            ->setCurrentText(QStringLiteral("PROOF_VERIFICATION_ON_L1"));
        window.findChild<QCheckBox*>(QStringLiteral("mockFactHashCheckBox"))->setChecked(true);
        QTest::mouseClick(submit, Qt::LeftButton);
        auto* table = window.findChild<QTableView*>(QStringLiteral("proofQueriesTableView"));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            table->model()->index(0, models::ProofQueryModel::StatusColumn).data().toString(),
            QStringLiteral("DONE"), 20000);
        QVERIFY(!banner->isVisible());
        // The mocked fact shows where the result is (issue #47: mocks looked real).
        const QModelIndex resultCell =
            table->model()->index(0, models::ProofQueryModel::ResultColumn);
        QCOMPARE(resultCell.data().toString(),
                 QStringLiteral("PROOF_VERIFICATION_ON_L1 · MOCKED PROOF AND FACT"));
        QVERIFY(resultCell.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Mocked")));
        // At 1024x640, selecting a query (its long ids and hashes) never widens the window.
        window.resize(1024, 640);
        QTRY_COMPARE(window.width(), 1024);
        table->selectRow(0);
        // Tab leaves the table for the controls after it (issue #47: it moved cell by cell).
        table->setFocus();
        QTRY_VERIFY(table->hasFocus());
        QTest::keyClick(table, Qt::Key_Tab);
        QVERIFY2(!table->hasFocus(), "Tab kept the focus in the jobs table");
        auto* detail = test::child<ui::JsonView>(&window, "queryRecordJsonView");
        QTRY_VERIFY(detail->text().contains(QStringLiteral("\"isFactMocked\": true")));
        // "On L1" is this server's registry, and the detail says so (issue #47).
        QTRY_VERIFY(test::child<QLabel>(&window, "factHashLabel")
                        ->text()
                        .endsWith(QStringLiteral(" (mocked), registered for L1 in this server's "
                                                 "local fact registry (no chain was asked)")));
        // Its tooltip says what each of the record's two facts is (the Integrity one is of the
        // program as SHARP's bootloader's task, unlike a verifier's reading of a proof).
        QTRY_VERIFY(test::child<QLabel>(&window, "factHashLabel")
                        ->toolTip()
                        .contains(QStringLiteral("the one task of SHARP's bootloader")));
        // Read as a tree: the record's keys, the first level open.
        QVERIFY(!detail->findItems(QStringLiteral("isFactMocked"), Qt::MatchExactly).isEmpty());
        QCOMPARE(
            detail->findItems(QStringLiteral("isFactMocked"), Qt::MatchExactly).first()->text(1),
            QStringLiteral("true"));
        QCoreApplication::processEvents();
        QVERIFY2(window.minimumSizeHint().width() <= 1024 &&
                     window.minimumSizeHint().height() <= 640,
                 qPrintable(QStringLiteral("the window needs %1x%2 px")
                                .arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        QCOMPARE(window.size(), QSize(1024, 640));
        // Every page fits 1024x640 too.
        for (int page = 0; page < navigation->count(); ++page) {
            navigation->setCurrentRow(page);
            QCoreApplication::processEvents();
            const QSize needed = window.minimumSizeHint();
            QVERIFY2(needed.width() <= 1024 && needed.height() <= 640,
                     qPrintable(QStringLiteral("%1 needs %2x%3 px")
                                    .arg(navigation->item(page)->text())
                                    .arg(needed.width())
                                    .arg(needed.height())));
            QCOMPARE(window.size(), QSize(1024, 640));
        }
        navigation->setCurrentRow(0);

        // Programs and facts: the program's hash, and the job's fact in the mocked namespace
        // only.
        navigation->setCurrentRow(1);
        window.findChild<QLineEdit*>(QStringLiteral("registerProgramPathLineEdit"))
            ->setText(program);
        QTest::mouseClick(
            window.findChild<QPushButton*>(QStringLiteral("registerProgramPushButton")),
            Qt::LeftButton);
        auto* hash = window.findChild<QLineEdit*>(QStringLiteral("registeredProgramHashLineEdit"));
        QTRY_VERIFY_WITH_TIMEOUT(!hash->text().isEmpty(), 10000);
        QVERIFY(detail->text().contains(hash->text()));
        const QString fact =
            table->model()->index(0, models::ProofQueryModel::FactHashColumn).data().toString();
        window.findChild<QLineEdit*>(QStringLiteral("factHashLineEdit"))->setText(fact);
        auto* lookUp = window.findChild<QPushButton*>(QStringLiteral("lookUpFactPushButton"));
        auto* result = window.findChild<QLabel*>(QStringLiteral("factResultLabel"));
        QTest::mouseClick(lookUp, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QStringLiteral("Not registered")),
                                 10000);
        // Issue #47: it says whose registry answered (this server's, no chain's).
        QVERIFY(result->text().contains(QStringLiteral("local fact registry (real namespace")));
        window.findChild<QCheckBox*>(QStringLiteral("factMockedCheckBox"))->setChecked(true);
        QTest::mouseClick(lookUp, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(QStringLiteral("Valid")), 10000);
        QVERIFY(result->text().contains(QStringLiteral("local fact registry (mocked namespace")));

        // "Use in a job" carries the registered hash to the jobs form.
        QTest::mouseClick(
            window.findChild<QPushButton*>(QStringLiteral("useProgramHashPushButton")),
            Qt::LeftButton);
        QCOMPARE(navigation->currentRow(), 0);
        QCOMPARE(window.findChild<QLineEdit*>(QStringLiteral("programHashLineEdit"))->text(),
                 hash->text());
        QVERIFY(
            window.findChild<QLineEdit*>(QStringLiteral("programPathLineEdit"))->text().isEmpty());
    }

    // Issue #47: every page is usable at 800×600 — no label holds the window wider (the Local
    // server page's prover line once made it 1,120 px) and every button is inside the window.
    void everyPageFitsIn800By600() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("small screen")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* navigation = test::child<QListWidget>(&window, "navigationListWidget");
        auto* pages = test::child<QStackedWidget>(&window, "pagesStackedWidget");
        QVERIFY(navigation->count() >= 6);
        for (int row = 0; row < navigation->count(); ++row) {
            navigation->setCurrentRow(row);
            window.resize(800, 600);
            QCoreApplication::processEvents();
            const QString page = navigation->item(row)->text();
            QVERIFY2(window.width() <= 800 && window.height() <= 600,
                     qPrintable(QStringLiteral("%1: the window stays %2×%3")
                                    .arg(page)
                                    .arg(window.width())
                                    .arg(window.height())));
            for (QPushButton* button : pages->currentWidget()->findChildren<QPushButton*>()) {
                if (!button->isVisibleTo(&window)) {
                    continue;
                }
                // Inside the window; in a page that scrolls (vertically only), inside its width.
                QRect inside = window.rect();
                for (QWidget* up = button->parentWidget(); up; up = up->parentWidget()) {
                    if (auto* scroll = qobject_cast<QScrollArea*>(up)) {
                        const QRect view(scroll->viewport()->mapTo(&window, QPoint(0, 0)),
                                         scroll->viewport()->size());
                        inside = QRect(view.left(), -100000, view.width(), 200000);
                        break;
                    }
                }
                const QRect area(button->mapTo(&window, QPoint(0, 0)), button->size());
                QVERIFY2(inside.contains(area),
                         qPrintable(QStringLiteral("%1: %2 lies outside the window")
                                        .arg(page, button->objectName())));
            }
        }
    }

    void theMenuBarAndItsShortcutsDriveTheConsole() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("keyboard")));
        const QString project =
            console.server.server().apiKeys().adminProjectNamed(QStringLiteral("keyboard"));
        ui::MainWindow window(console.parts());
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QStringList menus;
        for (QAction* menu : window.menuBar()->actions()) {
            menus << menu->text();
        }
        QCOMPARE(menus, (QStringList{QStringLiteral("&File"), QStringLiteral("&Edit"),
                                     QStringLiteral("&View"), QStringLiteral("&Job"),
                                     QStringLiteral("&Help")}));
        auto* navigation = test::child<QListWidget>(&window, "navigationListWidget");

        // Ctrl+3: the buckets page; Ctrl+Enter presses its Create.
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(navigation->currentRow(), 2);
        QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);
        QTRY_COMPARE(console.server.server().proofs().buckets().list(project, 10, 0).second, 1);
        auto* buckets = test::child<QTableView>(&window, "bucketsTableView");
        QTRY_COMPARE(buckets->model()->rowCount(), 1);

        // Enter in one of a form's fields sends it, as in a web form.
        auto* externalId = test::child<QLineEdit>(&window, "bucketExternalIdLineEdit");
        externalId->setFocus();
        QTest::keyClicks(externalId, QStringLiteral("from-enter"));
        QTest::keyClick(externalId, Qt::Key_Return);
        QTRY_COMPARE(console.server.server().proofs().buckets().list(project, 10, 0).second, 2);

        // Ctrl+1 and Ctrl+F: the proof jobs page's search field takes the keyboard.
        QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(navigation->currentRow(), 0);
        auto* search = test::child<QLineEdit>(&window, "searchLineEdit");
        QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(search->hasFocus());

        // F5 refreshes the page; Ctrl+, opens the settings.
        QTest::keyClick(&window, Qt::Key_F5);
        QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("Refreshed."));
        QTest::keyClick(&window, Qt::Key_Comma, Qt::ControlModifier);
        QTRY_VERIFY(window.findChild<ui::SettingsDialog*>() &&
                    window.findChild<ui::SettingsDialog*>()->isVisible());
        window.findChild<ui::SettingsDialog*>()->reject();

        // Ctrl+Q closes the window.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_Q, Qt::ControlModifier);
        QTRY_VERIFY(!window.isVisible());
    }

    // Issue #47, journey 1 by keys alone: the sample, submitted, followed to its end (the new job
    // is selected by itself), its proof verified here and downloaded.
    void aProofJobRunsByKeysAlone() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("keys")));
        ui::MainWindow window(console.parts());
        QTemporaryDir downloads;
        window.findChild<ui::ProofJobsPage*>()->setSaveLocationProvider(
            [&downloads](const QString& name) { return downloads.filePath(name); });
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
        QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(test::child<QComboBox>(&window, "resultComboBox")->currentText(),
                 QStringLiteral("PROOF_VERIFICATION_ON_L1"));
        QTest::keyClick(&window, Qt::Key_Return, Qt::ControlModifier);
        auto* table = test::child<QTableView>(&window, "proofQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(
            table->model()->index(0, models::ProofQueryModel::StatusColumn).data().toString(),
            QStringLiteral("DONE"), 180000);
        const QString id =
            table->model()->index(0, 0).data(models::ProofQueryModel::QueryIdRole).toString();
        QTRY_VERIFY(test::child<QLabel>(&window, "queryTitleLabel")->text().startsWith(id));
        auto* artifacts = test::child<QListWidget>(&window, "artifactsListWidget");
        QTRY_VERIFY_WITH_TIMEOUT(
            !artifacts->findItems(QStringLiteral("proof.json"), Qt::MatchExactly).isEmpty(), 10000);

        // Ctrl+Shift+V verifies the proof here; Ctrl+S downloads it.
        QTest::keyClick(&window, Qt::Key_V, Qt::ControlModifier | Qt::ShiftModifier);
        auto* verdict = test::child<QLabel>(&window, "verificationLabel");
        QTRY_VERIFY_WITH_TIMEOUT(verdict->text().contains(QStringLiteral("✔ Valid")), 120000);
        QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(
            QFile::exists(downloads.filePath(id + QStringLiteral("-proof.json"))), 20000);
    }

    // Issue #47: another key is another project: the jobs page keeps nothing of the old one.
    void aKeySwitchLeavesNothingOfTheOtherProject() {
        test::ConsoleHarness console;
        const QString alpha = console.server.mintKey(QStringLiteral("alpha"));
        const QString beta = console.server.mintKey(QStringLiteral("beta"));
        test::TestHttp http(console.server.url());
        const test::Reply submitted = http.postMultipart(
            "/core-query",
            {{"programFile", test::outputProgram(5), "p.json", "application/json"},
             {"result", "TRACE_GENERATION"}},
            {{"api-key", alpha.toStdString()}});
        QCOMPARE(submitted.status, 201);
        console.proofs.setApiKey(alpha);
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* table = window.findChild<QTableView*>(QStringLiteral("proofQueriesTableView"));
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        table->selectRow(0);
        auto* title = window.findChild<QLabel*>(QStringLiteral("queryTitleLabel"));
        QTRY_VERIFY(title->text().startsWith(
            QString::fromStdString(submitted.json()["coreQueryId"].get<std::string>())));
        auto* bucket = window.findChild<QLineEdit*>(QStringLiteral("bucketIdLineEdit"));
        bucket->setText(QStringLiteral("01ALPHASBUCKET"));

        console.proofs.setApiKey(beta);
        QCOMPARE(table->model()->rowCount(), 0);
        QVERIFY(bucket->text().isEmpty());
        QVERIFY(title->text().startsWith(QStringLiteral("Select a query")));
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
