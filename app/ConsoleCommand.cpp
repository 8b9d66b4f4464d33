#include "Commands.h"

#include "core/DataDir.h"
#include "http/LocalServer.h"
#include "models/RequestLogModel.h"
#include "ui/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>

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

    ui::MainWindow window(
        {server->requestUrl(), server->proofUrl(), server->authUrl(), options.dataDir},
        &requestLog);
    window.show();
    const int code = QApplication::exec();
    server->requestLog().setSink({});
    server->stop();
    return code;
}
