// libFuzzer target: the Cairo PIE reader (zip + JSON + memory.bin). Any input must end in a
// CairoPie or a PieError, never a crash.

#include "cairo/pie/CairoPie.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const auto pie = proofdesk::cairo::CairoPie::fromZip(
            std::string(reinterpret_cast<const char*>(data), size));
        (void)pie.output();
        (void)pie.programHash();
    } catch (const proofdesk::cairo::PieError&) {
    } catch (const proofdesk::cairo::VmError&) {
    }
    return 0;
}
