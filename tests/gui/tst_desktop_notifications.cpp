// Issue #47: a job that ends raises a real desktop notification, through the freedesktop
// notification service. The service here is a fake one on a private bus of the test's own
// (dbus-daemon); the test is skipped where dbus-daemon is not installed.

#include "ConsoleHarness.h"
#include "ui/DesktopNotifier.h"
#include "ui/MainWindow.h"
#include "ui/ProofJobsPage.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDeadlineTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTest>

#include <vector>

using namespace proofdesk;

namespace {

const QString kService = QStringLiteral("org.freedesktop.Notifications");

// What a notification daemon receives.
struct Received {
    QString appName;
    uint replacesId = 0;
    QString icon;
    QString summary;
    QString body;
    QStringList actions;
    QVariantMap hints;
    int timeout = 0;
};

// A notification daemon as the Desktop Notifications Specification describes its Notify call.
class FakeNotificationService : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    std::vector<Received> received;

public slots:
    uint Notify(const QString& appName, uint replacesId, const QString& icon,
                const QString& summary, const QString& body, const QStringList& actions,
                const QVariantMap& hints, int timeout) {
        received.push_back({appName, replacesId, icon, summary, body, actions, hints, timeout});
        return uint(received.size());
    }
};

} // namespace

class DesktopNotificationsTest : public QObject {
    Q_OBJECT
private:
    QProcess m_daemon;
    QString m_address;
    FakeNotificationService m_fake;

private slots:
    void initTestCase() {
        const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        if (daemon.isEmpty()) {
            QSKIP("dbus-daemon is not installed (Debian package dbus)");
        }
        m_daemon.start(daemon, {QStringLiteral("--session"), QStringLiteral("--nofork"),
                                QStringLiteral("--print-address")});
        QVERIFY(m_daemon.waitForStarted(10000));
        const QDeadlineTimer deadline(10000);
        while (!m_daemon.canReadLine() && !deadline.hasExpired()) {
            m_daemon.waitForReadyRead(100);
        }
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        QVERIFY2(m_address.startsWith(QStringLiteral("unix:")), qPrintable(m_address));
        // The console's own session bus is this one (read when it is first used).
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_address.toUtf8());
        QDBusConnection service = QDBusConnection::connectToBus(m_address, QStringLiteral("fake"));
        QVERIFY(service.isConnected());
        QVERIFY(service.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &m_fake,
                                       QDBusConnection::ExportAllSlots));
        QVERIFY(service.registerService(kService));
    }

    void cleanupTestCase() {
        if (m_daemon.state() == QProcess::Running) {
            m_daemon.terminate();
            m_daemon.waitForFinished(10000);
        }
    }

    void aNotificationReachesTheNotificationService() {
        ui::DesktopNotifier notifier(
            QDBusConnection::connectToBus(m_address, QStringLiteral("console")));
        m_fake.received.clear();
        QVERIFY(notifier.notify(QStringLiteral("Proof job done"),
                                QStringLiteral("Query 01ABC is DONE.")));
        QTRY_COMPARE_WITH_TIMEOUT(int(m_fake.received.size()), 1, 10000);
        const Received& got = m_fake.received.front();
        QCOMPARE(got.appName, QStringLiteral("Proofdesk"));
        QCOMPARE(got.replacesId, 0u);
        QCOMPARE(got.icon, QStringLiteral("io.proofdesk.Proofdesk"));
        QCOMPARE(got.summary, QStringLiteral("Proof job done"));
        QCOMPARE(got.body, QStringLiteral("Query 01ABC is DONE."));
        QVERIFY(got.actions.isEmpty());
        QCOMPARE(got.hints.value(QStringLiteral("desktop-entry")).toString(),
                 QStringLiteral("io.proofdesk.Proofdesk"));
        QCOMPARE(got.timeout, 8000);
    }

    void withoutAServiceItSaysSoAndSendsNothing() {
        ui::DesktopNotifier disconnected(QDBusConnection::connectToBus(
            QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("nowhere")));
        QVERIFY(!disconnected.notify(QStringLiteral("t"), QStringLiteral("m")));
        QDBusConnection service = QDBusConnection::connectToBus(m_address, QStringLiteral("fake"));
        QVERIFY(service.unregisterService(kService));
        ui::DesktopNotifier notifier(
            QDBusConnection::connectToBus(m_address, QStringLiteral("console")));
        m_fake.received.clear();
        QVERIFY(!notifier.notify(QStringLiteral("t"), QStringLiteral("m")));
        QVERIFY(service.registerService(kService));
        QVERIFY(m_fake.received.empty());
    }

    // The console's main window notifies through the session bus when a watched job ends.
    void theConsoleNotifiesWhenAJobEnds() {
        test::ConsoleHarness console;
        ui::MainWindow window(console.parts());
        m_fake.received.clear();
        auto* jobs = window.findChild<ui::ProofJobsPage*>();
        QVERIFY(jobs);
        emit jobs->jobFinished(QStringLiteral("01JOB"), QStringLiteral("FAILED"),
                               QStringLiteral("the program ran out of steps"));
        QTRY_COMPARE_WITH_TIMEOUT(int(m_fake.received.size()), 1, 10000);
        QCOMPARE(m_fake.received.front().summary, QStringLiteral("Proof job failed"));
        // The reason travels with it, and stays in the status bar.
        QCOMPARE(m_fake.received.front().body,
                 QStringLiteral("Query 01JOB is FAILED: the program ran out of steps"));
        QVERIFY(window.statusBar()->currentMessage().contains(
            QStringLiteral("the program ran out of steps")));
        emit jobs->jobFinished(QStringLiteral("01JOB2"), QStringLiteral("DONE"), QString());
        QTRY_COMPARE_WITH_TIMEOUT(int(m_fake.received.size()), 2, 10000);
        QCOMPARE(m_fake.received.back().body, QStringLiteral("Query 01JOB2 is DONE."));
    }
};

QTEST_MAIN(DesktopNotificationsTest)
#include "tst_desktop_notifications.moc"
