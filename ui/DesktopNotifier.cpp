#include "DesktopNotifier.h"

#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QStringList>
#include <QVariantMap>

namespace proofdesk::ui {
namespace {

const QString kService = QStringLiteral("org.freedesktop.Notifications");
const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
// The installed menu entry (resources/desktop): its name and icon.
const QString kDesktopEntry = QStringLiteral("io.proofdesk.Proofdesk");
constexpr int kShownMs = 8000;

} // namespace

DesktopNotifier::DesktopNotifier(QDBusConnection bus, QObject* parent)
    : QObject(parent), m_bus(std::move(bus)) {}

bool DesktopNotifier::notify(const QString& title, const QString& message) {
    if (!m_bus.isConnected() || !m_bus.interface() ||
        !m_bus.interface()->isServiceRegistered(kService).value()) {
        return false;
    }
    // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout), as
    // the Desktop Notifications Specification defines it.
    QDBusMessage call =
        QDBusMessage::createMethodCall(kService, kPath, kService, QStringLiteral("Notify"));
    call << QStringLiteral("Proofdesk") << 0u << kDesktopEntry << title << message << QStringList()
         << QVariantMap{{QStringLiteral("desktop-entry"), kDesktopEntry}} << kShownMs;
    return m_bus.send(call);
}

} // namespace proofdesk::ui
