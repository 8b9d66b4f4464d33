// proofdesk-sandbox: the child program that runs untrusted work for the proof service, one
// process per run, confined before it reads anything (docs/security.md). The server starts it;
// it is not meant to be run by hand.

#include "proof/SandboxTasks.h"
#include "sandbox/SandboxChild.h"

int main(int argc, char** argv) {
    return proofdesk::sandbox::runSandboxChild(argc, argv, proofdesk::proof::proofSandboxTasks());
}
