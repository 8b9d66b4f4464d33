#include "ConsoleSettings.h"

#include <QSettings>

#include <utility>

namespace proofdesk::ui {
namespace {

// ProverChoice's fields and their keys under "prover/".
constexpr std::pair<QString ProverChoice::*, const char*> kProverKeys[] = {
    {&ProverChoice::engine, "engine"},
    {&ProverChoice::verifier, "verifier"},
    {&ProverChoice::stoneProver, "stoneProver"},
    {&ProverChoice::stoneVerifier, "stoneVerifier"},
    {&ProverChoice::bootloaderProgram, "bootloaderProgram"},
};

} // namespace

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
    settings.beginGroup(QStringLiteral("prover"));
    for (const auto& [field, key] : kProverKeys) {
        const QString value = settings.value(QLatin1String(key)).toString();
        if (!value.isEmpty()) { // an engine or verifier never chosen stays builtin
            loaded.prover.*field = value;
        }
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
    // Only these keys: serve's other prover settings (limits, security) stay as they are.
    settings.beginGroup(QStringLiteral("prover"));
    for (const auto& [field, key] : kProverKeys) {
        if ((prover.*field).isEmpty()) {
            settings.remove(QLatin1String(key));
        } else {
            settings.setValue(QLatin1String(key), prover.*field);
        }
    }
    settings.endGroup();
    settings.sync();
}

} // namespace proofdesk::ui
