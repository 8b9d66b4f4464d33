#pragma once

#include <string>

namespace proofdesk::core {

// Who sets a server's settings, and so how its failure reasons tell the reader to change one:
// `proofdesk serve`'s flags, or the console's Settings dialog for the server the console embeds
// (issue #47: a console user has no command line to pass a flag on).
enum class SettingsSurface { CommandLine, ConsoleSettings };

// The settings a failure reason can point to.
enum class Setting {
    Prover,            // which prover proof generation runs
    StoneProver,       // the path of Stone's cpu_air_prover
    StoneVerifier,     // the path of Stone's cpu_air_verifier
    BootloaderProgram, // the bootloader PIEs are proven through
    ChainRpc,          // a chain's JSON-RPC URL (`subject`: the chain id)
};

// What to do, as a clause that follows a colon: "start the server with --bootloader-program PATH
// (…)" or "set Settings → Bootloader program to …". `subject` fills in the chain id of ChainRpc.
std::string howToSet(SettingsSurface surface, Setting setting, const std::string& subject = {});

// The setting's name alone, as the reader finds it: "--bootloader-program" or
// "Settings → Bootloader program".
std::string settingName(SettingsSurface surface, Setting setting);

} // namespace proofdesk::core
