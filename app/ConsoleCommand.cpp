#include "ChainSettings.h"
#include "CommandLine.h"
#include "Commands.h"
#include "EmbeddedServer.h"

#include "client/AuthClient.h"
#include "client/ProofClient.h"
#include "client/RequestClient.h"
#include "client/SecretStore.h"
#include "client/WalletSession.h"
#include "core/DataDir.h"
#include "models/RequestLogModel.h"
#include "ui/ConsoleSettings.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSettings>
#include <QTimer>

#include <cstdio>

using namespace proofdesk;

namespace {

// The console's HTTP clients, pointed at the embedded server once it listens.
struct ConsoleClients {
    QNetworkAccessManager* network;
    client::ProofClient* proofs;
    client::AuthClient* auth;
    client::RequestClient* requests;
};

// Starts the embedded server of the Local profile on `dataDir`, with the saved provers and chain
// RPC URLs; its request log feeds the console's. Says why in a message box and returns null when
// it does not start.
std::unique_ptr<EmbeddedServer> startEmbeddedServer(const QString& dataDir,
                                                    QSettings& settingsStore,
                                                    ConsoleClients clients,
                                                    models::RequestLogModel& requestLog) {
    server::ServerOptions options;
    options.dataDir = dataDir;
    options.provers = withProverChoice({}, ui::ConsoleSettings::load(settingsStore).prover);
    // Its failure reasons name the Settings fields, not `proofdesk serve`'s flags.
    options.provers.settingsSurface = core::SettingsSurface::ConsoleSettings;
    options.requests.settingsSurface = core::SettingsSurface::ConsoleSettings;
    QString chainError;
    if (!loadChainRpcUrls(settingsStore, {}, &options.requests.chains, &chainError)) {
        QMessageBox::warning(nullptr, QStringLiteral("Proofdesk"),
                             QObject::tr("A chain RPC setting is ignored: %1").arg(chainError));
    }
    auto server =
        std::make_unique<EmbeddedServer>(options, [clients, &requestLog](EmbeddedServer& embedded) {
            server::LocalServer& started = *embedded.server();
            clients.proofs->setBaseUrl(QUrl(started.proofUrl()));
            clients.auth->setBaseUrl(QUrl(started.authUrl()));
            clients.requests->setBaseUrl(QUrl(started.requestUrl()));
            if (clients.proofs->apiKey().isEmpty()) {
                // The Local profile's key until a wallet sign-in picks another.
                clients.proofs->setApiKey(embedded.adminKey());
            }
            started.requestLog().setSink([&requestLog](const http::RequestLogEntry& entry) {
                const models::RequestLogRow row{QDateTime::fromMSecsSinceEpoch(entry.atMs),
                                                entry.method, entry.path, entry.status,
                                                entry.milliseconds};
                // Served on a listener thread; the model lives on the GUI thread.
                QMetaObject::invokeMethod(
                    &requestLog, [&requestLog, row] { requestLog.append(row); },
                    Qt::QueuedConnection);
            });
        });
    // Stopped, the server's port may be taken by another process: the clients send nothing (and
    // so no key) until the next start points them at the server again (onStarted above).
    server->setBeforeStop([clients] {
        const QString why = QObject::tr("the local server is stopped: start it on the Local "
                                        "server page");
        clients.proofs->markStopped(why);
        clients.auth->markStopped(why);
        clients.requests->markStopped(why);
        clients.network->clearConnectionCache();
    });
    QString error;
    if (!server->start(&error)) {
        QMessageBox::critical(nullptr, QStringLiteral("Proofdesk"),
                              QObject::tr("The embedded server did not start: %1").arg(error));
        return nullptr;
    }
    return server;
}

} // namespace

int runConsole(int argc, char** argv) {
    QElapsedTimer sinceStart;
    sinceStart.start();
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Proofdesk"));
    QApplication::setApplicationName(QStringLiteral("proofdesk"));
    QApplication::setApplicationDisplayName(QStringLiteral("Proofdesk"));
    // The installed menu entry (resources/desktop): the window is matched to it and its icon.
    QGuiApplication::setDesktopFileName(QStringLiteral("io.proofdesk.Proofdesk"));
    QApplication::setApplicationVersion(QStringLiteral(PROOFDESK_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Proofdesk console."));
    parser.addHelpOption();
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the store and artifacts live."),
                                     QStringLiteral("dir"), core::defaultDataDir());
    const QCommandLineOption startupProbe(
        QStringLiteral("startup-probe"),
        QStringLiteral("Print the milliseconds from start to a shown window, then quit."));
    parser.addOption(dataDir);
    parser.addOption(startupProbe);
    processCommandLine(parser, app);

    QSettings settingsStore;
    const ui::ConsoleSettings settings = ui::ConsoleSettings::load(settingsStore);
    QNetworkAccessManager network;
    client::ProofClient proofClient(&network, QUrl(settings.proofUrl), QString());
    client::AuthClient authClient(&network, QUrl(settings.authUrl));
    client::RequestClient requestClient(&network, QUrl(settings.requestUrl),
                                        [&proofClient] { return proofClient.apiKey(); });
    models::RequestLogModel requestLog;

    std::unique_ptr<EmbeddedServer> server;
    ui::ServerEndpoints endpoints{settings.requestUrl, settings.proofUrl, settings.authUrl, {}};
    if (!settings.isRemote()) {
        server =
            startEmbeddedServer(parser.value(dataDir), settingsStore,
                                {&network, &proofClient, &authClient, &requestClient}, requestLog);
        if (!server) {
            return 1;
        }
        endpoints = server->endpoints();
    }

    // Secrets of this profile: the local data dir's, or the deployment's.
    client::KeychainSecretStore secrets(
        settings.isRemote() ? QStringLiteral("Proofdesk ") + settings.authUrl
                            : QStringLiteral("Proofdesk local ") + parser.value(dataDir));
    client::WalletSession session(&authClient, &secrets);

    ui::ConsoleParts parts;
    parts.proofs = &proofClient;
    parts.requests = &requestClient;
    parts.session = &session;
    parts.secrets = &secrets;
    parts.requestLog = &requestLog;
    parts.server = server.get();
    parts.endpoints = endpoints;
    parts.settings = settings;
    if (settings.isRemote()) {
        parts.reconnect = [&](const ui::ServerEndpoints& moved) {
            network.clearConnectionCache();
            proofClient.setBaseUrl(QUrl(moved.proofUrl));
            authClient.setBaseUrl(QUrl(moved.authUrl));
            requestClient.setBaseUrl(QUrl(moved.requestUrl));
        };
    }
    parts.rememberLayout = true;
    bool restart = false;
    parts.restart = [&restart] {
        restart = true;
        QApplication::closeAllWindows(); // the window saves its layout as it closes
        QApplication::quit();
    };
    ui::MainWindow window(parts);
    window.show();
    if (parser.isSet(startupProbe)) {
        QTimer::singleShot(0, &window, [&] {
            std::printf("startup: %lld ms to a shown window\n",
                        static_cast<long long>(sinceStart.elapsed()));
            std::fflush(stdout);
            QApplication::quit();
        });
    } else {
        session.restore();
    }
    const int code = QApplication::exec();
    server.reset();
    if (restart) {
        // The same program with the same arguments, now that the embedded server has let go of
        // its data dir and ports.
        QProcess::startDetached(QCoreApplication::applicationFilePath(),
                                QCoreApplication::arguments().mid(1));
    }
    return code;
}
