#include "cairo/vm/ProgramHash.h"

#include "crypto/Pedersen.h"

namespace proofdesk::cairo {

Felt programHash(const std::vector<Felt>& data, const std::vector<std::string>& builtins,
                 std::uint64_t main) {
    std::vector<Felt> chain;
    chain.reserve(data.size() + builtins.size() + 4);
    chain.push_back(Felt::zero()); // bootloader version
    chain.push_back(Felt::fromU64(main));
    chain.push_back(Felt::fromU64(builtins.size()));
    for (const std::string& name : builtins) {
        chain.push_back(
            Felt::fromBytesBE(reinterpret_cast<const std::uint8_t*>(name.data()), name.size()));
    }
    chain.insert(chain.end(), data.begin(), data.end());
    chain.insert(chain.begin(), Felt::fromU64(chain.size()));
    return crypto::pedersenHashChain(chain);
}

Felt programHash(const Program& program) {
    return programHash(program.data, program.builtins, program.main);
}

} // namespace proofdesk::cairo
