#pragma once

#include <QDBusConnection>
#include <QObject>
#include <QString>

namespace proofdesk::ui {

// Desktop notifications through the freedesktop notification service
// (org.freedesktop.Notifications on the session bus: GNOME, KDE, XFCE and the notification
// daemons of other desktops), which shows them even when the console is in the background.
// Where no such service runs, notify() says so and the caller falls back to the tray.
class DesktopNotifier : public QObject {
    Q_OBJECT
public:
    explicit DesktopNotifier(QDBusConnection bus = QDBusConnection::sessionBus(),
                             QObject* parent = nullptr);

    // Sends the notification (asynchronously: a slow service never holds the console up);
    // false when the bus has no notification service now.
    bool notify(const QString& title, const QString& message);

private:
    QDBusConnection m_bus;
};

} // namespace proofdesk::ui
