#include "CommandLine.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>

void processCommandLine(QCommandLineParser& parser, const QCoreApplication& app) {
    const QStringList arguments = app.arguments();
    if (!parser.parse(arguments)) {
        std::fprintf(stderr, "proofdesk: %s\nRun it with --help for the options.\n",
                     qPrintable(parser.errorText()));
        std::exit(2);
    }
    if (parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"))) {
        parser.showHelp(0);
    }
}
