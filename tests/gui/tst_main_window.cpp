#include "models/RequestLogModel.h"
#include "ui/MainWindow.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QTableView>
#include <QTest>

using namespace proofdesk;

class MainWindowTest : public QObject {
    Q_OBJECT
private slots:
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

    void localServerPageShowsEndpointsAndLiveLog() {
        models::RequestLogModel log;
        ui::MainWindow window({QStringLiteral("http://127.0.0.1:1"),
                               QStringLiteral("http://127.0.0.1:2"),
                               QStringLiteral("http://127.0.0.1:3"), QStringLiteral("/data")},
                              &log);
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
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
