#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace proofdesk::crypto {

// The BLAKE2s compression function (RFC 7693 §3.2): state h (8 words), a 16-word message block,
// the byte counter (t0, t1) and the finalization flags (f0, f1); returns the new h.
std::array<std::uint32_t, 8> blake2sCompress(const std::array<std::uint32_t, 8>& h,
                                             const std::array<std::uint32_t, 16>& message,
                                             std::uint32_t t0, std::uint32_t t1, std::uint32_t f0,
                                             std::uint32_t f1);

// BLAKE2s-256 of a message: no key, 32-byte digest (RFC 7693).
std::array<std::uint8_t, 32> blake2s256(const std::uint8_t* data, std::size_t size);

// BLAKE2s's IV (the SHA-256 initial hash values).
const std::array<std::uint32_t, 8>& blake2sIv();

} // namespace proofdesk::crypto
