// libFuzzer target: the compiled-program loader, and a bounded run of whatever it accepts.
// Any input must end in a value or a ProgramError / VmError, never a crash or a hang.

#include "cairo/Runner.h"
#include "cairo/vm/Program.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const proofdesk::cairo::Program program = proofdesk::cairo::Program::fromText(text);
        proofdesk::cairo::RunOptions options;
        options.maxSteps = 1000;
        options.layout = "all_solidity";
        proofdesk::cairo::CairoRunner runner(program, options);
        runner.run();
    } catch (const proofdesk::cairo::ProgramError&) {
    } catch (const proofdesk::cairo::VmError&) {
    }
    return 0;
}
