#include "ChainSettings.h"

bool loadChainRpcUrls(const QSettings& settings, const QStringList& assignments,
                      proofdesk::chain::ChainRegistry* chains, QString* error) {
    for (const QString& id : proofdesk::chain::knownChainIds()) {
        const QString url = settings.value(QStringLiteral("chainRpc/") + id).toString();
        if (!url.isEmpty() && !chains->addAssignment(id + QLatin1Char('=') + url, error)) {
            *error = QStringLiteral("settings chainRpc/%1: %2").arg(id, *error);
            return false;
        }
    }
    for (const QString& assignment : assignments) {
        if (!chains->addAssignment(assignment, error)) {
            return false;
        }
    }
    return true;
}
