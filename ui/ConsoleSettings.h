#pragma once

#include <QString>

#include <map>

class QSettings;

namespace proofdesk::ui {

// How the embedded server proves and verifies, kept under "prover/" where `proofdesk serve`
// reads it too: the engine ("builtin", Proofdesk's own prover, also when empty; "stone",
// "mock" or "none"), the verifier ("builtin" or "stone"), Stone's two binaries, and the
// bootloader program Cairo PIEs are proven through (cairo-lang's, compiled with --proof_mode).
struct ProverChoice {
    QString engine = QStringLiteral("builtin");
    QString verifier = QStringLiteral("builtin");
    QString stoneProver;
    QString stoneVerifier;
    QString bootloaderProgram;

    friend bool operator==(const ProverChoice&, const ProverChoice&) = default;
};

// What the settings dialog edits, kept in QSettings under "console/": the profile ("Local": the
// embedded server on loopback; "Remote": a deployment at the three URLs) and the polling
// interval of the live views, and the chain RPC URLs and prover of the embedded server. A change
// of profile applies at the next start; everything else at once (MainWindow::applySettings).
struct ConsoleSettings {
    QString profile = QStringLiteral("Local");
    QString requestUrl;
    QString proofUrl;
    QString authUrl;
    int pollIntervalMs = 1500;
    // The embedded server's chain JSON-RPC URLs (chain id -> URL), kept under "chainRpc/" where
    // `proofdesk serve` reads them too.
    std::map<QString, QString> chainRpcUrls;
    // The embedded server's prover; a change restarts a running embedded server.
    ProverChoice prover;

    bool isRemote() const { return profile == QLatin1String("Remote"); }
    static ConsoleSettings load(QSettings& settings);
    void save(QSettings& settings) const;
};

} // namespace proofdesk::ui
