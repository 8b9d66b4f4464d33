// libFuzzer target: the bootloader's program_input (BootloaderInput::fromJson), the task programs
// it loads and the packed outputs it nests. Any input must end in a value or a VmError, never a
// crash or a hang.

#include "cairo/hints/BootloaderInput.h"
#include "cairo/vm/ExactJson.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json json = proofdesk::cairo::parseExactJson(text);
    if (json.is_discarded()) {
        return 0;
    }
    for (const bool full : {true, false}) {
        try {
            const auto input = proofdesk::cairo::BootloaderInput::fromJson(json, full);
            for (const auto& packed : input.packedOutputs) {
                (void)packed.elementsForHash();
            }
        } catch (const proofdesk::cairo::VmError&) {
        }
    }
    return 0;
}
