#pragma once

#include "cairo/vm/Program.h"

namespace proofdesk::cairo {

// cairo-lang's compute_program_hash_chain with Pedersen and bootloader version 0:
// H([len(chain)] + chain), chain = [0, main, len(builtins), builtin names as big-endian ASCII
// felts..., data...], H the right fold of pedersen (compute_hash_chain).
Felt programHash(const std::vector<Felt>& data, const std::vector<std::string>& builtins,
                 std::uint64_t main);
Felt programHash(const Program& program);

} // namespace proofdesk::cairo
