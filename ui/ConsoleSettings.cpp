#include "ConsoleSettings.h"

#include <QSettings>

namespace proofdesk::ui {

ConsoleSettings ConsoleSettings::load(QSettings& settings) {
    ConsoleSettings loaded;
    settings.beginGroup(QStringLiteral("console"));
    loaded.profile = settings.value(QStringLiteral("profile"), loaded.profile).toString();
    if (loaded.profile != QLatin1String("Remote")) {
        loaded.profile = QStringLiteral("Local");
    }
    loaded.requestUrl = settings.value(QStringLiteral("requestUrl")).toString();
    loaded.proofUrl = settings.value(QStringLiteral("proofUrl")).toString();
    loaded.authUrl = settings.value(QStringLiteral("authUrl")).toString();
    loaded.pollIntervalMs =
        std::clamp(settings.value(QStringLiteral("pollIntervalMs"), 1500).toInt(), 250, 60000);
    settings.endGroup();
    settings.beginGroup(QStringLiteral("chainRpc"));
    for (const QString& chainId : settings.childKeys()) {
        loaded.chainRpcUrls[chainId] = settings.value(chainId).toString();
    }
    settings.endGroup();
    return loaded;
}

void ConsoleSettings::save(QSettings& settings) const {
    settings.beginGroup(QStringLiteral("console"));
    settings.setValue(QStringLiteral("profile"), profile);
    settings.setValue(QStringLiteral("requestUrl"), requestUrl);
    settings.setValue(QStringLiteral("proofUrl"), proofUrl);
    settings.setValue(QStringLiteral("authUrl"), authUrl);
    settings.setValue(QStringLiteral("pollIntervalMs"), pollIntervalMs);
    settings.endGroup();
    settings.remove(QStringLiteral("chainRpc"));
    settings.beginGroup(QStringLiteral("chainRpc"));
    for (const auto& [chainId, url] : chainRpcUrls) {
        settings.setValue(chainId, url);
    }
    settings.endGroup();
    settings.sync();
}

} // namespace proofdesk::ui
