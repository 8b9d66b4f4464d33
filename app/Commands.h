#pragma once

// Entry points of the `proofdesk` subcommands; each returns the process exit code.
int runServeCommand(int argc, char** argv);
int runWorkerCommand(int argc, char** argv);
int runStoreCommand(int argc, char** argv);
int runKeysCommand(int argc, char** argv);
int runCreditsCommand(int argc, char** argv);
int runCairoRunCommand(int argc, char** argv);
int runExecuteCommand(int argc, char** argv);
int runProgramHashCommand(int argc, char** argv);
int runVerifyCommand(int argc, char** argv);
int runProveCommand(int argc, char** argv);
#ifdef PROOFDESK_WITH_GUI
int runConsole(int argc, char** argv);
#endif
