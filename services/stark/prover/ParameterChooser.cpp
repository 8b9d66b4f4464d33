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

std::optional<Optimize> optimizeNamed(const std::string& name) {
    if (name == "size") {
        return Optimize::Size;
    }
    if (name == "time") {
        return Optimize::Time;
    }
    return std::nullopt;
}

const char* optimizeName(Optimize optimize) {
    return optimize == Optimize::Size ? "size" : "time";
}

double predictedProvingCost(int logCosets, int queries) {
    // Measured on fibonacci at 2^16 steps on small (docs/stark.md): committing costs 1.43 s per
    // coset of the trace's size, a decommitment 0.103 s per unit of its halvings.
    constexpr double kCommitPerCoset = 13.9;
    const double cosets = double(1u << logCosets);
    double halvings = 0;
    for (int level = 1; level < 40; ++level) {
        halvings +=
            std::min(cosets * double(1ull << level), double(queries)) / double(1ull << level);
    }
    return kCommitPerCoset * cosets + halvings;
}

ProofParameters chooseParameters(std::uint64_t traceLength, int securityBits,
                                 ChannelProfile profile, Optimize optimize) {
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
    p.proofOfWorkBits = std::min(24, securityBits / 4);
    const int remaining = securityBits - p.proofOfWorkBits;
    const auto queriesAt = [&](int logCosets) {
        return std::max(1, (remaining + logCosets - 1) / logCosets);
    };
    if (optimize == Optimize::Size) {
        // The smallest blow-up (4 at least) whose queries stay within Stone's 18: a lower target
        // then costs a smaller evaluation domain, not just fewer queries.
        constexpr int kMaxQueries = 18;
        p.logCosets = 2;
        while (p.logCosets < 4 && queriesAt(p.logCosets) > kMaxQueries) {
            ++p.logCosets;
        }
    } else {
        // Integrity's verifier (as cairo-lang's Cairo verifier) takes at most 48 queries: its
        // channel's proofs stay within them, at the cheapest blow-up that does.
        constexpr int kIntegrityMaxQueries = 48;
        const auto allowed = [&](int logCosets) {
            return profile != ChannelProfile::Integrity || logCosets == 4 ||
                   queriesAt(logCosets) <= kIntegrityMaxQueries;
        };
        p.logCosets = 4;
        for (int logCosets = 3; logCosets >= 1; --logCosets) {
            if (allowed(logCosets) &&
                predictedProvingCost(logCosets, queriesAt(logCosets)) <=
                    predictedProvingCost(p.logCosets, queriesAt(p.logCosets))) {
                p.logCosets = logCosets;
            }
        }
    }
    p.queries = std::uint64_t(queriesAt(p.logCosets));

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
