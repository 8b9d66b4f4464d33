#include "ParameterChooser.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace proofdesk::stark {

std::optional<ChannelProfile> channelProfileNamed(const std::string& name) {
    if (name == "stone" || name == "keccak") {
        return ChannelProfile::Stone;
    }
    if (name == "integrity" || name == "poseidon") {
        return ChannelProfile::Integrity;
    }
    return std::nullopt;
}

const char* channelProfileName(ChannelProfile profile) {
    return profile == ChannelProfile::Stone ? "stone" : "integrity";
}

ProofParameters chooseParameters(std::uint64_t traceLength, int securityBits,
                                 ChannelProfile profile) {
    if (!std::has_single_bit(traceLength) || traceLength < 4) {
        throw std::invalid_argument("the trace length must be a power of two of at least 4");
    }
    if (securityBits < 1 || securityBits > 256) {
        throw std::invalid_argument("the security target must be between 1 and 256 bits");
    }
    ProofParameters p;
    if (profile == ChannelProfile::Stone) {
        p.channelHash = "keccak256";
        p.commitmentHash = "keccak256_masked160_msb";
        p.verifierFriendlyCommitmentHash = p.commitmentHash;
        p.powHash = "keccak256";
        p.pageHash = "keccak256";
    } else {
        p.channelHash = "poseidon3";
        p.commitmentHash = "keccak256_masked160_lsb";
        p.verifierFriendlyCommitmentHash = "poseidon3";
        p.verifierFriendlyLayers = 1000;
        p.verifierFriendlyChannelUpdates = true;
        p.powHash = "keccak256";
        p.pageHash = "pedersen";
    }
    p.logCosets = 4;
    p.proofOfWorkBits = std::min(24, securityBits / 4);
    const int remaining = securityBits - p.proofOfWorkBits;
    p.queries = std::uint64_t(std::max(1, (remaining + p.logCosets - 1) / p.logCosets));

    const int logTrace = std::countr_zero(traceLength);
    const int logLast = std::min(6, logTrace - 1);
    p.lastLayerDegreeBound = std::uint64_t(1) << logLast;
    int folds = logTrace - logLast;
    p.friSteps = {0};
    while (folds > 0) {
        const int step = std::min(4, folds);
        p.friSteps.push_back(step);
        folds -= step;
    }
    return p;
}

} // namespace proofdesk::stark
