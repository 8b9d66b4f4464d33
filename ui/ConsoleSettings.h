#pragma once

#include <QString>

class QSettings;

namespace proofdesk::ui {

// What the settings dialog edits, kept in QSettings under "console/": the profile ("Local": the
// embedded server on loopback; "Remote": a deployment at the three URLs) and the polling
// interval of the live views. The profile and URLs apply at the next start; the interval at once.
struct ConsoleSettings {
    QString profile = QStringLiteral("Local");
    QString requestUrl;
    QString proofUrl;
    QString authUrl;
    int pollIntervalMs = 1500;

    bool isRemote() const { return profile == QLatin1String("Remote"); }
    static ConsoleSettings load(QSettings& settings);
    void save(QSettings& settings) const;
};

} // namespace proofdesk::ui
