#pragma once

#include "proof/ProofParameters.h"

#include <cstdint>
#include <optional>
#include <string>

namespace proofdesk::stark {

// The two channel profiles the prover offers: Stone's default keccak channel, and the Poseidon
// (felt) channel with Poseidon commitments that Starknet's Integrity verifier takes.
enum class ChannelProfile { Stone, Integrity };
std::optional<ChannelProfile> channelProfileNamed(const std::string& name);
const char* channelProfileName(ChannelProfile profile);

// What the parameters favour at a given security: the smallest proof (`size`: the largest
// blow-up, fewest queries; what an on-chain verifier pays for) or the fastest prover (`time`: the
// blow-up this prover's cost model predicts fastest, 2 in practice, with the queries it needs).
enum class Optimize { Size, Time };
std::optional<Optimize> optimizeNamed(const std::string& name);
const char* optimizeName(Optimize optimize);

// Proof parameters for a trace of `traceLength` rows at a security target (bits, counted as the
// verifier counts them: n_queries · log_n_cosets + proof_of_work_bits): a quarter of the bits (at
// most 24) from proof of work, the smallest blow-up of 4, 8 or 16 at which the rest needs at most
// 18 queries (16 beyond that), as many queries as the rest needs, a last layer of 64 coefficients
// (less for tiny traces) and FRI folding 4 layers at a time after an unfolded first layer. At 96
// bits that is Stone's usual profile: blow-up 16, 18 queries, 24 bits of work, last layer 64.
// Optimize::Time takes the blow-up of 2 to 16 with the lowest predictedProvingCost and as many
// queries as the rest needs (96 bits: blow-up 2, 72 queries; the same security, counted the same
// way); with the Integrity channel, among those needing at most 48 queries, as many as Integrity's
// verifier takes (96 bits: blow-up 4, 36 queries).
// The time a proof's blow-up-dependent phases take, in units of one column's coefficients walked
// once, for 2^logCosets cosets of the trace's size and `queries` queries: committing to the
// low-degree extension (transforms and hashing, about 14 units a coset) and decommitting (the
// queried cosets' remainders by halvings shared between queries: Σ_l min(cosets·2^l, queries)/2^l
// units). The rest of a proof does not depend on the blow-up.
double predictedProvingCost(int logCosets, int queries);

ProofParameters chooseParameters(std::uint64_t traceLength, int securityBits = 96,
                                 ChannelProfile profile = ChannelProfile::Stone,
                                 Optimize optimize = Optimize::Size);

} // namespace proofdesk::stark
