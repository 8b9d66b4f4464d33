#pragma once

class QCommandLineParser;
class QCoreApplication;

// Reads the command line as QCommandLineParser::process does (--help prints the options and
// exits 0), except that a mistake (an unknown option, a missing value) is named on stderr and
// exits with code 2, as every proofdesk command does for bad usage.
void processCommandLine(QCommandLineParser& parser, const QCoreApplication& app);
