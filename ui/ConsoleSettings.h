#pragma once

#include <QString>

#include <map>

class QSettings;

namespace proofdesk::ui {

// What the settings dialog edits, kept in QSettings under "console/": the profile ("Local": the
// embedded server on loopback; "Remote": a deployment at the three URLs) and the polling
// interval of the live views, and the chain RPC URLs of the embedded server. A change of profile
// applies at the next start; everything else at once (MainWindow::applySettings).
struct ConsoleSettings {
    QString profile = QStringLiteral("Local");
    QString requestUrl;
    QString proofUrl;
    QString authUrl;
    int pollIntervalMs = 1500;
    // The embedded server's chain JSON-RPC URLs (chain id -> URL), kept under "chainRpc/" where
    // `proofdesk serve` reads them too.
    std::map<QString, QString> chainRpcUrls;

    bool isRemote() const { return profile == QLatin1String("Remote"); }
    static ConsoleSettings load(QSettings& settings);
    void save(QSettings& settings) const;
};

} // namespace proofdesk::ui
