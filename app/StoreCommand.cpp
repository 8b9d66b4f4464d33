#include "CommandLine.h"
#include "Commands.h"
#include "OfflineStore.h"

#include "core/Clock.h"
#include "core/DataDir.h"
#include "core/JobEngine.h"
#include "core/Store.h"
#include "core/StoreCopy.h"
#include "server/ServiceSet.h"
#include "server/StoreStatus.h"

#include <QDir>

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <nlohmann/json.hpp>

using namespace proofdesk;

namespace {

void printStatus(QTextStream& out, const api::ServerStatus& status) {
    out << "Store: " << QString::fromStdString(status.store)
        << (status.shared ? " (team store)" : " (this machine's)") << '\n';
    out << "Workers alive: " << status.workers.size() << '\n';
    for (const api::WorkerStatus& worker : status.workers) {
        out << "  " << QString::fromStdString(worker.name) << " on "
            << QString::fromStdString(worker.host) << ", " << worker.threads
            << " threads, heartbeat " << worker.lastHeartbeatMsAgo / 1000 << " s ago"
            << (worker.runningJob.empty()
                    ? QString()
                    : QStringLiteral(", running ") + QString::fromStdString(worker.runningJob))
            << '\n';
    }
    out << "Queue:" << (status.queue.empty() ? " empty" : "") << '\n';
    for (const api::QueueDepth& depth : status.queue) {
        out << "  " << QString::fromStdString(depth.kind) << " / project "
            << QString::fromStdString(depth.project) << ": " << depth.queued << " waiting, "
            << depth.running << " running";
        if (!depth.oldestQueuedAt.empty()) {
            out << ", oldest waiting since " << QString::fromStdString(depth.oldestQueuedAt);
        }
        out << '\n';
    }
    out.flush();
}

// store copy: opens both stores with every component (so both have today's schema), copies the
// tables, then the artifact files.
int copyCommand(const QString& fromDir, const QString& toUrl, QTextStream& out) {
    if (!QDir(fromDir).exists(QStringLiteral("proofdesk.sqlite"))) {
        throw std::runtime_error(
            QString(fromDir + QStringLiteral(" holds no Proofdesk store")).toStdString());
    }
    core::SystemClock clock;
    server::ServiceSettings source;
    source.dataDir = fromDir;
    server::ServiceSet from(source, clock);
    server::ServiceSettings destination = source;
    destination.store = toUrl;
    server::ServiceSet to(destination, clock);
    const std::vector<core::TableCopy> tables = core::copyStore(from.store(), to.store());
    qint64 rows = 0;
    for (const core::TableCopy& table : tables) {
        out << "  " << table.table << ": " << table.rows << " rows (" << table.sampled
            << " read back and compared)\n";
        rows += table.rows;
    }
    const int files = to.proofs().artifacts().publishAll();
    out << "Copied " << rows << " rows of " << tables.size() << " tables and " << files
        << " artifact files from " << fromDir << " to " << to.store().path()
        << "; counts and samples match." << Qt::endl;
    return 0;
}

} // namespace

int runStoreCommand(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("proofdesk"));
    QTextStream out(stdout);
    QTextStream err(stderr);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("store status: the workers alive on a store (name, host, last heartbeat, "
                       "job) and its queue (per kind and project, oldest waiting job).\n"
                       "store copy --from DATADIR --to URL: move a desktop's data (records and "
                       "artifacts) into a new team store, checked by counts and samples."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("action"), QStringLiteral("status or copy"));
    const QCommandLineOption dataDir = dataDirOption();
    const QCommandLineOption store = storeOption();
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption from(QStringLiteral("from"),
                                  QStringLiteral("copy: the data dir to copy from."),
                                  QStringLiteral("dir"));
    const QCommandLineOption to(QStringLiteral("to"),
                                QStringLiteral("copy: the PostgreSQL store to copy into "
                                               "(postgresql://USER@HOST:PORT/DB, empty)."),
                                QStringLiteral("url"));
    parser.addOptions({dataDir, store, json, from, to});
    processCommandLine(parser, app);
    if (parser.positionalArguments() == QStringList{QStringLiteral("copy")}) {
        if (!parser.isSet(from) || !core::StoreLocation::isPostgresUrl(parser.value(to))) {
            err << "usage: proofdesk store copy --from DATADIR --to postgresql://USER@HOST:PORT/DB"
                << Qt::endl;
            return 2;
        }
        try {
            return copyCommand(parser.value(from), parser.value(to), out);
        } catch (const std::exception& failure) {
            err << "proofdesk store copy: " << failure.what() << Qt::endl;
            return 1;
        }
    }
    if (parser.positionalArguments() != QStringList{QStringLiteral("status")}) {
        err << "usage: proofdesk store status [--store URL | --data-dir DIR] [--json]\n"
               "       proofdesk store copy --from DATADIR --to URL"
            << Qt::endl;
        return 2;
    }
    try {
        OfflineStore offline(parser.value(dataDir), parser.value(store));
        core::JobEngine jobs(offline.store, offline.clock);
        const api::ServerStatus status = server::storeStatus(offline.store, jobs, offline.clock);
        if (parser.isSet(json)) {
            out << QString::fromStdString(api::toJson(status).dump(2)) << Qt::endl;
        } else {
            printStatus(out, status);
        }
    } catch (const std::exception& failure) {
        err << "proofdesk store status: " << failure.what() << Qt::endl;
        return 1;
    }
    return 0;
}
