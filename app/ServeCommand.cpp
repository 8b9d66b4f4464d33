#include "Commands.h"

#include "core/DataDir.h"
#include "http/LocalServer.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <csignal>
#include <pthread.h>

using namespace proofdesk;

namespace {

bool readListen(const QCommandLineParser& parser, const QString& name,
                std::optional<http::ListenAddress>* out, QString* error) {
    if (!parser.isSet(name)) {
        return true;
    }
    *out = http::parseListenAddress(parser.value(name));
    if (!*out) {
        *error = QStringLiteral("--%1 expects HOST:PORT, got %2").arg(name, parser.value(name));
        return false;
    }
    return true;
}

} // namespace

int runServeCommand(int argc, char** argv) {
    // Block the stop signals before any thread starts, so every thread inherits the mask and the
    // main thread alone receives them through sigwait.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("proofdesk"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PROOFDESK_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Serve the request, proof and sign-in APIs (headless)."));
    parser.addHelpOption();
    const QCommandLineOption listen(QStringLiteral("listen"),
                                    QStringLiteral("Address of the listener serving all three "
                                                   "APIs (port 0 picks a free port)."),
                                    QStringLiteral("host:port"), QStringLiteral("127.0.0.1:7300"));
    const QCommandLineOption dataDir(QStringLiteral("data-dir"),
                                     QStringLiteral("Where the store and artifacts live."),
                                     QStringLiteral("dir"), defaultDataDir());
    const QCommandLineOption allowRemote(
        QStringLiteral("allow-remote"),
        QStringLiteral("Allow listening on addresses other than loopback."));
    parser.addOption(listen);
    parser.addOption(dataDir);
    parser.addOption(allowRemote);
    for (const char* name :
         {"request-listen", "request-alias-listen", "proof-listen", "auth-listen"}) {
        parser.addOption(QCommandLineOption(
            QLatin1String(name), QStringLiteral("An extra listener for one service only."),
            QStringLiteral("host:port")));
    }
    parser.process(app);

    http::ServerOptions options;
    options.dataDir = parser.value(dataDir);
    options.allowRemote = parser.isSet(allowRemote);
    QString error;
    const auto mainAddress = http::parseListenAddress(parser.value(listen));
    if (!mainAddress) {
        err << "--listen expects HOST:PORT, got " << parser.value(listen) << Qt::endl;
        return 2;
    }
    options.listen = *mainAddress;
    if (!readListen(parser, QStringLiteral("request-listen"), &options.requestListen, &error) ||
        !readListen(parser, QStringLiteral("request-alias-listen"), &options.requestAliasListen,
                    &error) ||
        !readListen(parser, QStringLiteral("proof-listen"), &options.proofListen, &error) ||
        !readListen(parser, QStringLiteral("auth-listen"), &options.authListen, &error)) {
        err << error << Qt::endl;
        return 2;
    }

    http::LocalServer server(options);
    server.requestLog().setSink([&err](const http::RequestLogEntry& entry) {
        err << entry.method << ' ' << entry.path << ' ' << entry.status << ' '
            << QString::number(entry.milliseconds, 'f', 1) << "ms" << Qt::endl;
    });
    if (!server.start(&error)) {
        err << "proofdesk serve: " << error << Qt::endl;
        return 1;
    }
    for (const QString& warning : server.warnings()) {
        err << "warning: " << warning << Qt::endl;
    }
    out << "Proofdesk " << QCoreApplication::applicationVersion() << " serving on "
        << server.mainUrl() << '\n'
        << "  request service: " << server.requestUrl() << '\n'
        << "  request alias:   " << server.requestAliasUrl() << '\n'
        << "  proof service:   " << server.proofUrl() << '\n'
        << "  sign-in service: " << server.authUrl() << '\n'
        << "  data dir:        " << options.dataDir << '\n'
        << "Press Ctrl+C to stop." << Qt::endl;

    int received = 0;
    sigwait(&stopSignals, &received);
    out << "Stopping (signal " << received << ")..." << Qt::endl;
    server.stop();
    out << "Stopped." << Qt::endl;
    return 0;
}
