#include "core/SettingNames.h"

namespace proofdesk::core {

std::string settingName(SettingsSurface surface, Setting setting) {
    const bool console = surface == SettingsSurface::ConsoleSettings;
    switch (setting) {
    case Setting::Prover:
        return console ? "Settings → Prover" : "--prover";
    case Setting::StoneProver:
        return console ? "Settings → Stone prover" : "--stone-prover";
    case Setting::StoneVerifier:
        return console ? "Settings → Stone verifier" : "--stone-verifier";
    case Setting::BootloaderProgram:
        return console ? "Settings → Bootloader program" : "--bootloader-program";
    case Setting::ChainRpc:
        return console ? "Settings → Chain RPC URLs" : "--chain-rpc";
    }
    return {};
}

std::string howToSet(SettingsSurface surface, Setting setting, const std::string& subject) {
    if (surface == SettingsSurface::ConsoleSettings) {
        switch (setting) {
        case Setting::Prover:
            return "choose one in Settings → Prover (builtin is Proofdesk's own)";
        case Setting::StoneProver:
            return "install cpu_air_prover and set its path in Settings → Stone prover, or "
                   "choose another prover in Settings → Prover";
        case Setting::StoneVerifier:
            return "install Stone's cpu_air_verifier and set its path in Settings → Stone "
                   "verifier, or choose the builtin verifier in Settings → Verifier";
        case Setting::BootloaderProgram:
            return "set Settings → Bootloader program to cairo-lang's bootloader compiled with "
                   "--proof_mode";
        case Setting::ChainRpc:
            return "add the line " + subject +
                   "=http://HOST:PORT to Settings → Chain RPC URLs (it applies at once)";
        }
        return {};
    }
    switch (setting) {
    case Setting::Prover:
        return "start the server with --prover builtin (Proofdesk's own), --prover stone with "
               "--stone-prover PATH, or --prover mock";
    case Setting::StoneProver:
        return "install cpu_air_prover and start the server with --stone-prover PATH, or use "
               "--prover mock";
    case Setting::StoneVerifier:
        return "install Stone's cpu_air_verifier and start the server with --stone-verifier PATH";
    case Setting::BootloaderProgram:
        return "start it with --bootloader-program PATH (the bootloader compiled with "
               "--proof_mode)";
    case Setting::ChainRpc:
        return "start the server with --chain-rpc " + subject + "=http://HOST:PORT";
    }
    return {};
}

} // namespace proofdesk::core
