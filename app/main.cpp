#include "Commands.h"

#include <cstdio>
#include <cstring>

namespace {

void printUsage() {
    std::fputs(
        "Usage: proofdesk [--data-dir DIR]        open the console (embedded server)\n"
        "       proofdesk serve [options]          serve the three APIs headless\n"
        "       proofdesk worker --store URL       run a team store's jobs (no listener)\n"
        "       proofdesk store status|copy ...    a store's workers and queue; move data\n"
        "       proofdesk keys create [options]    mint an API key without a wallet\n"
        "       proofdesk credits show|set ...     a project's proof-service credits\n"
        "       proofdesk cairo-run --program P.json [cairo-run flags]\n"
        "       proofdesk execute --executable E.json [--arguments A,B] [--proof_mode]\n"
        "                                          run a Cairo 1 program (Scarb executable)\n"
        "       proofdesk program-hash P.json      a program's hash (Pedersen chain)\n"
        "       proofdesk verify PROOF.json        verify a Stone proof (our verifier)\n"
        "       proofdesk prove --out_file F ...   prove a Cairo run (our STARK prover)\n"
        "Run a subcommand with --help for its options.\n",
        stdout);
}

} // namespace

int main(int argc, char** argv) {
    const char* command = argc > 1 ? argv[1] : "";
    if (std::strcmp(command, "serve") == 0) {
        return runServeCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "worker") == 0) {
        return runWorkerCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "store") == 0) {
        return runStoreCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "keys") == 0) {
        return runKeysCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "credits") == 0) {
        return runCreditsCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "cairo-run") == 0) {
        return runCairoRunCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "execute") == 0) {
        return runExecuteCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "verify") == 0) {
        return runVerifyCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "prove") == 0) {
        return runProveCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "program-hash") == 0) {
        return runProgramHashCommand(argc - 1, argv + 1);
    }
    if (std::strcmp(command, "--help") == 0 || std::strcmp(command, "-h") == 0 ||
        std::strcmp(command, "help") == 0) {
        printUsage();
        return 0;
    }
    if (command[0] != '\0' && command[0] != '-') {
        // Not a command: say so rather than open the console on a typo (`proofdesk verfy`).
        std::fprintf(stderr, "proofdesk: unknown command '%s'\n", command);
        printUsage();
        return 2;
    }
#ifdef PROOFDESK_WITH_GUI
    return runConsole(argc, argv);
#else
    std::fputs("This build has no console (PROOFDESK_GUI=OFF). Use `proofdesk serve`.\n", stderr);
    printUsage();
    return 2;
#endif
}
