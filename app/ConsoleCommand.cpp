#include "Commands.h"

#include "auth/ApiKeyRegistry.h"
#include "client/ProofClient.h"
#include "core/DataDir.h"
#include "http/LocalServer.h"
#include "models/RequestLogModel.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QNetworkAccessManager>

using namespace proofdesk;

int runConsole(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("proofdesk"));
    QApplication::setApplicationDisplayName(QStringLiteral("Proofdesk"));
    QApplication::setApplicationVersion(QStringLiteral(PROOFDESK_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Proofdesk console."));
    parser.addHelpOption();
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the store and artifacts live."),
                                     QStringLiteral("dir"), defaultDataDir());
    parser.addOption(dataDir);
    parser.process(app);

    // The "Local" profile: the embedded server on loopback; a busy default port falls back to a
    // free one so a second instance (another data dir) still starts.
    http::ServerOptions options;
    options.dataDir = parser.value(dataDir);
    auto server = std::make_unique<http::LocalServer>(options);
    QString error;
    if (!server->start(&error)) {
        options.listen.port = 0;
        server = std::make_unique<http::LocalServer>(options);
        if (!server->start(&error)) {
            QMessageBox::critical(nullptr, QStringLiteral("Proofdesk"),
                                  QObject::tr("The embedded server did not start: %1").arg(error));
            return 1;
        }
    }

    models::RequestLogModel requestLog;
    server->requestLog().setSink([&requestLog](const http::RequestLogEntry& entry) {
        const models::RequestLogRow row{QDateTime::fromMSecsSinceEpoch(entry.atMs), entry.method,
                                        entry.path, entry.status, entry.milliseconds};
        // Served on a listener thread; the model lives on the GUI thread.
        QMetaObject::invokeMethod(
            &requestLog, [&requestLog, row] { requestLog.append(row); }, Qt::QueuedConnection);
    });

    // The Local profile's API key: the embedded server's "Console" project, minted once and reused
    // (the wallet sign-in dialog replaces it for remote deployments).
    auth::ApiKeyRegistry& keys = server->apiKeys();
    const QString consoleProject = keys.adminProjectNamed(QStringLiteral("Console"));
    const api::ApiKeyPage existing = keys.listKeys(consoleProject, 1, 0);
    const QString consoleKey = QString::fromStdString(
        existing.data.empty()
            ? keys.mintKey(consoleProject, QStringLiteral("Console"), QStringLiteral("#2563eb"))
                  .apiKey
            : existing.data.front().apiKey);
    QNetworkAccessManager network;
    client::ProofClient proofClient(&network, QUrl(server->proofUrl()), consoleKey);

    ui::MainWindow window(
        {server->requestUrl(), server->proofUrl(), server->authUrl(), options.dataDir}, &requestLog,
        &proofClient);
    window.show();
    const int code = QApplication::exec();
    server->requestLog().setSink({});
    server->stop();
    return code;
}
