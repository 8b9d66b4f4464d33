// proofdesk-sandbox: the child program that runs untrusted work for the proof service, one
// process per run, confined before it reads anything (docs/security.md). The server starts it;
// it is not meant to be run by hand. It links the engines its tasks run and nothing of the store.

#include "sandbox/SandboxChild.h"
#include "sandbox/work/ChildTasks.h"

int main(int argc, char** argv) {
    return proofdesk::sandbox::runSandboxChild(argc, argv, proofdesk::work::childTasks());
}
