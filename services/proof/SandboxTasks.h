#pragma once

#include "sandbox/SandboxChild.h"

#include <map>
#include <string>

namespace proofdesk::proof {

// The proof service's untrusted work, as it runs inside a sandboxed child (docs/security.md):
//   inspect         reads whatever a submission brought (program, input, pie, proof) and
//                   answers what the service must know at once, or the 400 error code;
//   trace           runs a program (non-proof mode, native or Python hints) and writes pie.zip;
//   proof-mode-run  runs a program in proof mode and writes trace.bin, memory.bin and the AIR
//                   public and private inputs (for Stone's prover);
//   prove           runs a program in proof mode and proves it with our prover (proof.json),
//                   reporting its progress;
//   verify-proof    verifies a Stone proof with our verifier and answers the verdict.
// Each returns a JSON value read by SandboxedWork on the server's side.
std::map<std::string, sandbox::TaskFunction> proofSandboxTasks();

} // namespace proofdesk::proof
