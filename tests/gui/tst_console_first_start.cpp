// A first start as a new user sees it: every page's empty table says what the page is for and
// what to do first, and "Try the sample" fills the proof form with our sample program (which then
// runs to DONE, its output shown as 89) and the data-request form with a ready request.
#include "ConsoleHarness.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace proofdesk;
using test::child;
using test::click;

class ConsoleFirstStartTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true); // the sample is written to a test data folder
    }

    void everyEmptyTableSaysWhatToDo() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("first-start")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const std::pair<const char*, const char*> pages[] = {
            {"proofQueriesTableViewEmptyLabel", "No proof jobs yet"},
            {"bucketsTableViewEmptyLabel", "No buckets yet"},
            {"requestQueriesTableViewEmptyLabel", "No data requests yet"},
            {"growOrdersTableViewEmptyLabel", "No grow orders yet"},
            {"apiKeysTableViewEmptyLabel", "Sign in with a wallet"}};
        for (const auto& [name, text] : pages) {
            auto* label = child<QLabel>(&window, name);
            QVERIFY2(label->text().startsWith(QLatin1String(text)), name);
            QVERIFY2(!label->isHidden(), name);
        }
        // A search that hides every row says so instead.
        auto* empty = child<QLabel>(&window, "proofQueriesTableViewEmptyLabel");
        child<QLineEdit>(&window, "searchLineEdit")->setText(QStringLiteral("zzz"));
        QCOMPARE(empty->text(),
                 QStringLiteral("No query matches the search or the status filter."));
        child<QLineEdit>(&window, "searchLineEdit")->clear();
        QVERIFY(empty->text().startsWith(QStringLiteral("No proof jobs yet")));
    }

    void theSampleProgramRunsToDone() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("sample")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        click(&window, "trySamplePushButton");
        const QString program = child<QLineEdit>(&window, "programPathLineEdit")->text();
        QVERIFY(program.endsWith(QStringLiteral("/fibonacci.json")));
        QVERIFY(QFileInfo(program).size() > 0);
        QVERIFY(child<QLineEdit>(&window, "inputPathLineEdit")->text().isEmpty());
        QVERIFY(child<QPushButton>(&window, "submitPushButton")->hasFocus());
        // The sample is proven and verified, not only traced (issue #47).
        QCOMPARE(child<QComboBox>(&window, "resultComboBox")->currentText(),
                 QStringLiteral("PROOF_VERIFICATION_ON_L1"));

        click(&window, "submitPushButton");
        auto* table = child<QTableView>(&window, "proofQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        QVERIFY2(!child<QLabel>(&window, "errorBannerLabel")->isVisible(),
                 qPrintable(child<QLabel>(&window, "errorBannerLabel")->text()));
        QVERIFY(child<QLabel>(&window, "proofQueriesTableViewEmptyLabel")->isHidden());
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(0, 1).data().toString(),
                                  QStringLiteral("DONE"), 120000);
        // Its output as cairo-run prints it: the 11th Fibonacci number.
        table->selectRow(0);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(&window, "programOutputLabel")->text(),
                                  QStringLiteral("Output: 89"), 10000);
    }

    // Issue #46: the Cairo 1 sample (an executable of our own) is recognised, its entry points
    // and builtins shown, its arguments taken, and it is proven to DONE with its output.
    void theCairo1SampleIsProven() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("sample")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* arguments = child<QLineEdit>(&window, "argumentsLineEdit");
        QVERIFY(arguments->isHidden()); // a Cairo 0 program takes no arguments
        click(&window, "tryCairo1SamplePushButton");
        const QString program = child<QLineEdit>(&window, "programPathLineEdit")->text();
        QVERIFY(program.endsWith(QStringLiteral("/fibonacci.executable.json")));
        auto* kind = child<QLabel>(&window, "fileKindLabel");
        QCOMPARE(kind->text(), QStringLiteral("Cairo 1 executable: 27 words of CASM; entry points "
                                              "Standalone at 0, Bootloader at 6; builtins "
                                              "output."));
        QVERIFY(!arguments->isHidden());
        QCOMPARE(arguments->text(), QStringLiteral("90"));
        QVERIFY(child<QComboBox>(&window, "cairoVmComboBox")->isHidden());
        // A bad argument is refused at the field, before anything is sent.
        arguments->setText(QStringLiteral("90, ninety"));
        click(&window, "submitPushButton");
        auto* banner = child<QLabel>(&window, "errorBannerLabel");
        QTRY_VERIFY(banner->isVisible());
        QVERIFY2(banner->text().contains(QStringLiteral("ninety")), qPrintable(banner->text()));
        arguments->setText(QStringLiteral("90"));

        click(&window, "submitPushButton");
        auto* table = child<QTableView>(&window, "proofQueriesTableView");
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->index(0, 1).data().toString(),
                                  QStringLiteral("DONE"), 120000);
        table->selectRow(0);
        QTRY_COMPARE_WITH_TIMEOUT(child<QLabel>(&window, "programOutputLabel")->text(),
                                  QStringLiteral("Output: 2880067194370816120"), 10000);
    }

    void theSampleDataRequestIsReadyToSend() {
        test::ConsoleHarness console;
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(QStringLiteral("dataRequestsPageWidget"));
        auto* json = child<QPlainTextEdit>(&window, "requestJsonPlainTextEdit");
        json->setPlainText(QStringLiteral("{ hand edited")); // the sample replaces this too
        click(&window, "trySampleRequestPushButton");
        const auto request = nlohmann::json::parse(json->toPlainText().toStdString());
        const std::string text = request.dump();
        for (const char* expected :
             {"11155111", "ParentHash", "StateRoot", "Timestamp", "KECCAK"}) {
            QVERIFY2(text.find(expected) != std::string::npos, expected);
        }
        QVERIFY(text.find("POSEIDON") == std::string::npos);
    }
};

QTEST_MAIN(ConsoleFirstStartTest)
#include "tst_console_first_start.moc"
