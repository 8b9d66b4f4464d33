#include "CommandLine.h"
#include "Commands.h"
#include "OfflineStore.h"

#include "core/DataDir.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

using namespace proofdesk;

int runKeysCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("proofdesk"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("keys create: mint an API key for the request and proof services without "
                       "a wallet (scripts, CI). The key alone is printed on stdout."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("create"));
    const QCommandLineOption dataDir = dataDirOption();
    const QCommandLineOption store = storeOption();
    const QCommandLineOption project(QStringLiteral("project"),
                                     QStringLiteral("Project name (created if absent)."),
                                     QStringLiteral("name"), QStringLiteral("CLI"));
    const QCommandLineOption name(QStringLiteral("name"), QStringLiteral("Key name."),
                                  QStringLiteral("name"), QStringLiteral("CLI key"));
    parser.addOption(dataDir);
    parser.addOption(store);
    parser.addOption(project);
    parser.addOption(name);
    const QCommandLineOption admin(
        QStringLiteral("admin"),
        QStringLiteral("An admin key: it also reads the server's status (GET /admin/status: "
                       "workers, queue), as the console's Local server page shows it."));
    parser.addOption(admin);
    processCommandLine(parser, app);
    if (parser.positionalArguments() != QStringList{QStringLiteral("create")}) {
        err << "usage: proofdesk keys create [--data-dir DIR | --store URL] [--project NAME] "
               "[--admin]"
            << Qt::endl;
        return 2;
    }

    QString error;
    if (!core::prepareDataDir(parser.value(dataDir), &error)) {
        err << error << Qt::endl;
        return 1;
    }
    try {
        OfflineStore offline(parser.value(dataDir), parser.value(store));
        auth::ApiKeyRegistry& keys = offline.keys;
        const QString projectId = keys.adminProjectNamed(parser.value(project));
        const bool adminKey = parser.isSet(admin);
        const api::ApiKeyRecord key =
            keys.mintKey(projectId, parser.value(name), QStringLiteral("#64748b"),
                         adminKey ? auth::KeyRole::Admin : auth::KeyRole::Project);
        err << "Minted " << (adminKey ? "admin key " : "key ") << QString::fromStdString(key.id)
            << " for project " << parser.value(project) << " (" << projectId << ")" << Qt::endl;
        out << QString::fromStdString(key.apiKey) << Qt::endl;
    } catch (const std::exception& failure) {
        err << "proofdesk keys create: " << failure.what() << Qt::endl;
        return 1;
    }
    return 0;
}
