// libFuzzer target: the Stone proof JSON reader of the proof service (proofFile uploads). Any
// input must end in a statement or a StoneProofError, never a crash; a statement's facts must
// be computable.

#include "proof/StoneProof.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto statement = proofdesk::proof::parseStoneProof(
            std::string(reinterpret_cast<const char*>(data), size));
        (void)statement.sharpFactHash();
        (void)statement.integrityFactHash();
    } catch (const proofdesk::proof::StoneProofError&) {
    }
    return 0;
}
