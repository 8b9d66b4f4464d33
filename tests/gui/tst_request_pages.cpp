// The Data requests and Grow orders pages driven as a user would, against the embedded server
// and a real dev chain (anvil from npm; the test skips without it): build a request in the form,
// submit it, watch its query and action DAG complete and read the proven values; create a grow
// order that runs to COMPLETED and one that is cancelled.
#include "ConsoleHarness.h"
#include "DevChain.h"
#include "TestHttp.h"

#include "models/RequestModels.h"
#include "ui/ActionDagView.h"
#include "ui/JsonView.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace proofdesk;
using test::answerConfirmation;
using test::child;
using test::click;

namespace {

QString cell(QTableView* table, int row, int column) {
    return table->model()->index(row, column).data().toString();
}

} // namespace

class RequestPagesTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<test::DevChain> m_chain;
    QString m_chainError;

    std::unique_ptr<test::ConsoleHarness> console() {
        server::ServerOptions options;
        options.requests.chains.setRpcUrl(QStringLiteral("11155111"), m_chain->url());
        options.requests.growPollMs = 50;
        auto harness = std::make_unique<test::ConsoleHarness>(QString(), options);
        harness->proofs.setApiKey(harness->server.mintKey(QStringLiteral("console")));
        return harness;
    }

private slots:
    void initTestCase() {
        test::useOwnSettings(QStringLiteral("tst_request_pages"));
        m_chain = std::make_unique<test::DevChain>();
        if (!m_chain->start(&m_chainError)) {
            m_chain.reset();
            return; // the tests that need it skip
        }
        m_chain->mine(6);
    }

    // A chain the embedded server has no RPC URL for: the query fails, and its reason (in the
    // action's row, the notification and the status bar) names the Settings field to fill in.
    void aChainWithoutRpcFailsNamingTheSettingsField() {
        server::ServerOptions options;
        options.requests.settingsSurface = core::SettingsSurface::ConsoleSettings;
        test::ConsoleHarness harness(QString(), options);
        harness.proofs.setApiKey(harness.server.mintKey(QStringLiteral("console")));
        ui::MainWindow window(harness.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(QStringLiteral("dataRequestsPageWidget"));

        child<QPlainTextEdit>(&window, "requestJsonPlainTextEdit")
            ->setPlainText(QStringLiteral(
                R"({"destination_chain_id": "1", "data": {"10": {"block:5": null}}})"));
        QSignalSpy notified(&window, &ui::MainWindow::notified);
        click(&window, "submitRequestPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(notified.count(), 1, 20000);
        const QString setting = QStringLiteral("add the line 10=http://HOST:PORT to Settings → "
                                               "Chain RPC URLs");
        QCOMPARE(notified.front().at(0).toString(), QStringLiteral("Data request failed"));
        QVERIFY2(notified.front().at(1).toString().contains(setting),
                 qPrintable(notified.front().at(1).toString()));
        QVERIFY(!notified.front().at(1).toString().contains(QStringLiteral("--chain-rpc")));

        auto* queries = child<QTableView>(&window, "requestQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(cell(queries, 0, 1), QStringLiteral("FAILED"), 10000);
        auto* actions = child<QTableView>(&window, "requestActionsTableView");
        QTRY_VERIFY_WITH_TIMEOUT(actions->model()->rowCount() > 0, 10000);
        // The whole reason on the row, whatever the column's width shows.
        const QString tip = actions->model()->index(0, 1).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(setting), qPrintable(tip));

        // The query's id by keys: Ctrl+Shift+I in its table, as in the other pages' tables.
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        queries->setFocus();
        queries->selectRow(0);
        QTRY_VERIFY(queries->hasFocus());
        QApplication::clipboard()->clear();
        QTest::keyClick(queries, Qt::Key_I, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(QApplication::clipboard()->text(), cell(queries, 0, 0));
        QVERIFY(!cell(queries, 0, 0).isEmpty());
    }

    void userRequestsHeaderFieldsAndABalance() {
        if (!m_chain) {
            QSKIP(qPrintable(QStringLiteral("dev chain unavailable: ") + m_chainError));
        }
        auto harness = console();
        ui::MainWindow window(harness->parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(QStringLiteral("dataRequestsPageWidget"));

        auto* kind = child<QComboBox>(&window, "selectorKindComboBox");
        kind->setCurrentIndex(kind->findData(QStringLiteral("block_ranges")));
        QTest::keyClicks(child<QLineEdit>(&window, "selectorValueLineEdit"), QStringLiteral("2-4"));
        auto* fields = child<QListWidget>(&window, "headerFieldsListWidget");
        fields->findItems(QStringLiteral("StateRoot"), Qt::MatchExactly)
            .first()
            ->setCheckState(Qt::Checked);
        click(&window, "addAccountPushButton");
        auto* accounts = child<QTableWidget>(&window, "accountsTableWidget");
        accounts->item(0, 0)->setText(QString::fromStdString(test::DevChain::firstAccount()));
        accounts->item(0, 1)->setText(QStringLiteral("Balance"));
        child<QCheckBox>(&window, "poseidonCheckBox")->setChecked(true);

        // The JSON follows the form, live.
        auto* json = child<QPlainTextEdit>(&window, "requestJsonPlainTextEdit");
        const auto body = nlohmann::json::parse(json->toPlainText().toStdString());
        const auto& proving = body["data"]["11155111"]["proving"]["block_ranges:2-4"];
        COMPARE_JSON(proving["header"], nlohmann::json({"StateRoot"}));
        COMPARE_JSON(proving["hashing_functions"], nlohmann::json({"POSEIDON"}));
        QVERIFY(proving["accounts"].contains(test::DevChain::firstAccount()));

        // A hand edit that breaks the JSON is refused before it is sent.
        json->setPlainText(json->toPlainText() + QStringLiteral("}"));
        QVERIFY(child<QLabel>(&window, "requestJsonStateLabel")
                    ->text()
                    .contains(QStringLiteral("by hand")));
        click(&window, "submitRequestPushButton");
        auto* banner = child<QLabel>(&window, "dataRequestsErrorBannerLabel");
        QVERIFY(banner->text().contains(QStringLiteral("does not parse")));
        click(&window, "rebuildJsonPushButton");

        QSignalSpy finished(&window, &ui::MainWindow::notified);
        click(&window, "submitRequestPushButton");
        auto* requests = child<QListWidget>(&window, "requestsListWidget");
        QTRY_COMPARE_WITH_TIMEOUT(requests->count(), 1, 10000);
        auto* queries = child<QTableView>(&window, "requestQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(cell(queries, 0, 1), QStringLiteral("COMPLETED"), 30000);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        auto* dag = child<ui::ActionDagView>(&window, "actionDagView");
        // One copy of the statuses per check (two calls would give iterators of two vectors).
        const auto allCompleted = [dag] {
            const std::vector<QString> statuses = dag->statuses();
            return !statuses.empty() &&
                   std::all_of(statuses.begin(), statuses.end(), [](const QString& status) {
                       return status == QLatin1String("COMPLETED");
                   });
        };
        QTRY_VERIFY_WITH_TIMEOUT(allCompleted(), 10000);
        // resolve, headers, one MMR, one account, deliver.
        QCOMPARE(dag->statuses().size(), std::size_t(5));

        // Proven values: three state roots and three balances, equal to the chain's.
        auto* values = child<QTableView>(&window, "provenValuesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(values->model()->rowCount(), 7, 10000); // + the MMR root
        int checked = 0;
        for (int row = 0; row < values->model()->rowCount(); ++row) {
            const qlonglong block = values->model()->index(row, 0).data().toLongLong();
            const std::string blockHex = "0x" + QString::number(block, 16).toStdString();
            const QString name = cell(values, row, 3);
            const QString value = cell(values, row, 4);
            if (name == QLatin1String("StateRoot")) {
                QCOMPARE(value.toStdString(),
                         m_chain->rpc("eth_getBlockByNumber", {blockHex, false})["stateRoot"]
                             .get<std::string>());
                ++checked;
            } else if (name == QLatin1String("Balance")) {
                QCOMPARE(value.toStdString(),
                         m_chain->rpc("eth_getBalance", {test::DevChain::firstAccount(), blockHex})
                             .get<std::string>());
                ++checked;
            }
        }
        QCOMPARE(checked, 6);
        // Each balance also reads as ETH beside its raw wei; the query's chain by its name.
        for (int row = 0; row < values->model()->rowCount(); ++row) {
            if (cell(values, row, 3) == QLatin1String("Balance")) {
                QVERIFY(cell(values, row, models::ProvenValueModel::ReadsAsColumn)
                            .endsWith(QStringLiteral(" ETH")));
            }
        }
        QCOMPARE(cell(queries, 0, models::RequestQueryModel::ChainColumn),
                 QStringLiteral("Sepolia (11155111)"));
        // A value by keys: Ctrl+Shift+C in its table copies the selected row's value.
        child<QTabWidget>(&window, "requestDetailTabWidget")->setCurrentIndex(1);
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        values->setFocus();
        values->selectRow(2);
        QTRY_VERIFY(values->hasFocus());
        QApplication::clipboard()->clear();
        QTest::keyClick(values, Qt::Key_C, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(QApplication::clipboard()->text(),
                     cell(values, 2, models::ProvenValueModel::ValueColumn));

        // An action's whole record, as a JSON tree beside the table.
        auto* actionTable = child<QTableView>(&window, "requestActionsTableView");
        actionTable->selectRow(0);
        auto* record = child<ui::JsonView>(&window, "actionRecordJsonView");
        QTRY_VERIFY(record->json().contains("method"));
        QCOMPARE(QString::fromStdString(record->json()["status"].get<std::string>()),
                 QStringLiteral("COMPLETED"));
    }

    void userRunsAndCancelsGrowOrders() {
        if (!m_chain) {
            QSKIP(qPrintable(QStringLiteral("dev chain unavailable: ") + m_chainError));
        }
        auto harness = console();
        ui::MainWindow window(harness->parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(QStringLiteral("growOrdersPageWidget"));

        const std::int64_t head = m_chain->head();
        auto* minBatch = child<QLineEdit>(&window, "minBatchSizeLineEdit");
        minBatch->clear();
        QTest::keyClicks(minBatch, QStringLiteral("3"));
        QTest::keyClicks(child<QLineEdit>(&window, "startBlockLineEdit"), QStringLiteral("1"));
        QTest::keyClicks(child<QLineEdit>(&window, "finishBlockLineEdit"), QString::number(head));
        click(&window, "createGrowOrderPushButton");
        auto* table = child<QTableView>(&window, "growOrdersTableView");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, 0, 1), QStringLiteral("COMPLETED"), 30000);
        table->selectRow(0);
        QTRY_COMPARE(child<QProgressBar>(&window, "growOrderProgressBar")->value(), 100);
        QVERIFY(!child<QPushButton>(&window, "cancelGrowOrderPushButton")->isEnabled());

        // An order waiting for a million blocks: cancel it from its detail.
        minBatch->clear();
        QTest::keyClicks(minBatch, QStringLiteral("1000000"));
        child<QLineEdit>(&window, "finishBlockLineEdit")->clear();
        click(&window, "createGrowOrderPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 2, 10000);
        table->selectRow(0);
        QCOMPARE(cell(table, 0, 1), QStringLiteral("ACTIVE"));
        QTRY_VERIFY(child<QPushButton>(&window, "cancelGrowOrderPushButton")->isEnabled());
        // An active open-ended order shows a busy bar.
        QCOMPARE(child<QProgressBar>(&window, "growOrderProgressBar")->maximum(), 0);
        // Asked first: "Keep growing" (not a second "Cancel") leaves the order active.
        click(&window, "cancelGrowOrderPushButton");
        {
            QWidget* box = nullptr;
            QTRY_VERIFY((box = window.findChild<QWidget*>(
                             QStringLiteral("confirmCancelGrowOrderMessageBox"))));
            QCOMPARE(child<QPushButton>(box, "cancelPushButton")->text(),
                     QStringLiteral("Keep growing"));
            QCOMPARE(child<QPushButton>(box, "confirmPushButton")->text(),
                     QStringLiteral("Cancel order"));
        }
        answerConfirmation(&window, "confirmCancelGrowOrderMessageBox", "cancelPushButton");
        QTRY_VERIFY(
            !window.findChild<QWidget*>(QStringLiteral("confirmCancelGrowOrderMessageBox")));
        QCOMPARE(cell(table, 0, 1), QStringLiteral("ACTIVE"));
        QVERIFY(child<QPushButton>(&window, "cancelGrowOrderPushButton")->isEnabled());
        click(&window, "cancelGrowOrderPushButton");
        answerConfirmation(&window, "confirmCancelGrowOrderMessageBox", "confirmPushButton");
        QTRY_COMPARE_WITH_TIMEOUT(cell(table, 0, 1), QStringLiteral("CANCELLED"), 10000);
        // Once cancelled the bar stands still (issue #47: it stayed busy).
        QTRY_COMPARE(child<QProgressBar>(&window, "growOrderProgressBar")->maximum(), 100);
        QVERIFY(child<QLabel>(&window, "growOrderDetailLabel")
                    ->text()
                    .contains(QStringLiteral("CANCELLED")));
    }
};

QTEST_MAIN(RequestPagesTest)
#include "tst_request_pages.moc"
