// The console's Local server page (ui/LocalServerPage) in the main window: the endpoints and the
// live request log, the key's project credits, the server's jobs (GET /admin/status) and a
// stopped server in the status bar.

#include "ConsoleHarness.h"
#include "models/RequestLogModel.h"
#include "proof/ProofService.h"
#include "ui/MainWindow.h"

#include <QDateTime>
#include <QLabel>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTest>

using namespace proofdesk;

class LocalServerPageTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { test::useOwnSettings(QStringLiteral("tst_local_server_page")); }

    void localServerPageShowsEndpointsAndLiveLog() {
        // The Remote profile: no embedded server, the deployment's URLs shown.
        test::ConsoleHarness console;
        models::RequestLogModel& log = console.requestLog;
        ui::ConsoleParts parts = console.parts();
        parts.settings.profile = QStringLiteral("Remote");
        parts.endpoints = {QStringLiteral("http://127.0.0.1:1"),
                           QStringLiteral("http://127.0.0.1:2"),
                           QStringLiteral("http://127.0.0.1:3"), QString()};
        ui::MainWindow window(parts);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.findChild<QLabel*>(QStringLiteral("proofUrlLabel"))->text(),
                 QStringLiteral("http://127.0.0.1:2"));
        QCOMPARE(window.findChild<QLabel*>(QStringLiteral("authUrlLabel"))->text(),
                 QStringLiteral("http://127.0.0.1:3"));
        auto* table = window.findChild<QTableView*>(QStringLiteral("requestLogTableView"));
        QVERIFY(table);
        log.append({QDateTime::currentDateTimeUtc(), QStringLiteral("POST"),
                    QStringLiteral("/auth/web3/session"), 401, 3.0});
        QCOMPARE(table->model()->rowCount(), 1);
        QCOMPARE(table->model()->index(0, models::RequestLogModel::StatusColumn).data().toInt(),
                 401);
    }

    void localServerPageShowsTheProjectCredits() {
        test::ConsoleHarness console;
        const QString key = console.server.mintKey(QStringLiteral("credits"));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(QStringLiteral("localServerPageWidget"));
        auto* credits = window.findChild<QLabel*>(QStringLiteral("creditsLabel"));
        QTRY_COMPARE(credits->text(), QStringLiteral("(no API key yet)"));
        console.proofs.setApiKey(key);
        QTRY_VERIFY(credits->text().startsWith(QStringLiteral("unlimited")));
        const QString project =
            console.server.server().apiKeys().adminProjectNamed(QStringLiteral("credits"));
        console.server.server().proofs().credits().setBalance(project, 7);
        window.showPage(QStringLiteral("proofJobsPageWidget"));
        window.showPage(QStringLiteral("localServerPageWidget"));
        QTRY_VERIFY(credits->text().startsWith(QStringLiteral("7 left")));
    }

    // Issue #47: a stopped local server is said in the status bar until it runs again.
    void aStoppedServerIsSaidInTheStatusBar() {
        test::ConsoleHarness console;
        test::HarnessServerControl control(console.server);
        ui::MainWindow window(console.localParts(control));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        emit control.runningChanged(false);
        QVERIFY(window.statusBar()->currentMessage().startsWith(
            QStringLiteral("The local server is stopped")));
        emit control.runningChanged(true);
        QCOMPARE(window.statusBar()->currentMessage(),
                 QStringLiteral("Embedded server at ") + console.server.url());
    }

    // Issue #45: the page shows the server's store, workers and queue (GET /admin/status) with
    // the Local server's admin key, whatever key the pages use; on a deployment, with the
    // console's key when it is an admin key, and says how to get one when it is not.
    void localServerPageShowsTheServersJobs() {
        {
            test::ConsoleHarness console;
            // The pages' key is a project's (as after a wallet sign-in); the page uses the
            // server's admin key.
            console.proofs.setApiKey(console.server.mintKey(QStringLiteral("alpha")));
            test::HarnessServerControl control(console.server);
            ui::MainWindow window(console.localParts(control));
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.showPage(QStringLiteral("localServerPageWidget"));
            auto* jobs = window.findChild<QLabel*>(QStringLiteral("serverJobsLabel"));
            QVERIFY(jobs);
            QTRY_VERIFY_WITH_TIMEOUT(jobs->text().contains(QStringLiteral("Queue empty.")), 10000);
            QVERIFY2(jobs->text().startsWith(QStringLiteral("Store ")), qPrintable(jobs->text()));
            QVERIFY2(jobs->text().contains(QStringLiteral(": 3 threads, heartbeat 0 s ago")),
                     qPrintable(jobs->text()));
        }
        test::ConsoleHarness console;
        ui::ConsoleParts parts = console.parts();
        parts.settings.profile = QStringLiteral("Remote");
        ui::MainWindow window(parts);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("beta")));
        window.showPage(QStringLiteral("localServerPageWidget"));
        auto* jobs = window.findChild<QLabel*>(QStringLiteral("serverJobsLabel"));
        QTRY_VERIFY_WITH_TIMEOUT(
            jobs->text().startsWith(QStringLiteral("Only an admin key reads this server's jobs")),
            10000);
        console.proofs.setApiKey(
            console.server.mintKey(QStringLiteral("operators"), auth::KeyRole::Admin));
        window.showPage(QStringLiteral("proofJobsPageWidget"));
        window.showPage(QStringLiteral("localServerPageWidget"));
        QTRY_VERIFY_WITH_TIMEOUT(jobs->text().contains(QStringLiteral("Queue empty.")), 10000);
    }
};

QTEST_MAIN(LocalServerPageTest)
#include "tst_local_server_page.moc"
