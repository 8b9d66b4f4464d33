// libFuzzer target: EIP-712 typed data and signature decoding, as the sign-in service meets them.
// The first byte splits the input: typed-data JSON, then a signature (hex text or raw bytes).
// Hashing must give 32 bytes or throw TypedDataError (recursive types, huge arrays and bad
// integers included); a parsed signature must have 32-byte r and s, a recovery id of 0 or 1 and a
// low s; recovery must give 20 bytes or nothing. Anything else aborts.

#include "crypto/Eip712.h"
#include "crypto/Hex.h"
#include "crypto/Secp256k1.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk::crypto;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) {
        return 0;
    }
    const std::size_t split = std::min<std::size_t>(size - 1, data[0] * 4u);
    const std::string json(reinterpret_cast<const char*>(data + 1), split);
    const QByteArray signatureBytes(reinterpret_cast<const char*>(data + 1 + split),
                                    static_cast<qsizetype>(size - 1 - split));
    QByteArray digest(32, '\x01');
    const nlohmann::json typedData = nlohmann::json::parse(json, nullptr, false);
    if (!typedData.is_discarded()) {
        try {
            digest = eip712::signingDigest(typedData);
            if (digest.size() != 32) {
                std::abort();
            }
        } catch (const TypedDataError&) {
        }
    }
    // As hex text (what the session route receives) and as raw bytes.
    for (const auto& raw : {fromHex(QString::fromLatin1(signatureBytes)),
                            std::optional<QByteArray>(signatureBytes)}) {
        if (!raw) {
            continue;
        }
        RecoverableSignature signature;
        if (parseSignature(*raw, &signature) != SignatureProblem::None) {
            continue;
        }
        if (signature.r.size() != 32 || signature.s.size() != 32 ||
            (signature.recoveryId != 0 && signature.recoveryId != 1) ||
            static_cast<unsigned char>(signature.s[0]) > 0x7f) {
            std::abort();
        }
        const auto address = recoverAddress(digest, signature);
        if (address && address->size() != 20) {
            std::abort();
        }
    }
    return 0;
}
