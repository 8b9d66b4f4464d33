#include "CommandLine.h"
#include "Commands.h"
#include "OfflineStore.h"

#include "core/DataDir.h"
#include "proof/ProjectCredits.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

using namespace proofdesk;

int runCreditsCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("proofdesk"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("credits: read or set a project's proof-service credits (one credit per "
                       "submission; projects start unlimited). PROJECT is a project id or name."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("show | set"));
    parser.addPositionalArgument(QStringLiteral("project"), QStringLiteral("Project id or name."));
    parser.addPositionalArgument(QStringLiteral("amount"),
                                 QStringLiteral("set: a whole number, or `unlimited`."));
    const QCommandLineOption dataDir = dataDirOption();
    const QCommandLineOption store = storeOption();
    parser.addOption(dataDir);
    parser.addOption(store);
    processCommandLine(parser, app);
    const QStringList args = parser.positionalArguments();
    const bool show = args.size() == 2 && args[0] == QStringLiteral("show");
    const bool set = args.size() == 3 && args[0] == QStringLiteral("set");
    if (!show && !set) {
        err << "usage: proofdesk credits show PROJECT [--data-dir DIR]\n"
               "       proofdesk credits set PROJECT AMOUNT|unlimited [--data-dir DIR]"
            << Qt::endl;
        return 2;
    }
    std::optional<qint64> amount;
    if (set && args[2] != QStringLiteral("unlimited")) {
        bool ok = false;
        amount = args[2].toLongLong(&ok);
        if (!ok || *amount < 0) {
            err << "AMOUNT is a whole number >= 0 or `unlimited`, got " << args[2] << Qt::endl;
            return 2;
        }
    }

    QString error;
    if (!core::prepareDataDir(parser.value(dataDir), &error)) {
        err << error << Qt::endl;
        return 1;
    }
    try {
        OfflineStore offline(parser.value(dataDir), parser.value(store));
        auth::ApiKeyRegistry& keys = offline.keys;
        const std::optional<QString> project = keys.findProject(args[1]);
        if (!project) {
            err << "no project with id or name " << args[1] << Qt::endl;
            return 1;
        }
        proof::ProjectCredits credits(offline.store);
        if (set) {
            credits.setBalance(*project, amount);
        }
        const std::optional<qint64> balance = credits.balance(*project);
        out << *project << ' '
            << (balance ? QString::number(*balance) : QStringLiteral("unlimited")) << Qt::endl;
    } catch (const std::exception& failure) {
        err << "proofdesk credits: " << failure.what() << Qt::endl;
        return 1;
    }
    return 0;
}
