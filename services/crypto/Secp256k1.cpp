#include "Secp256k1.h"

#include "Keccak.h"

#include <secp256k1.h>
#include <secp256k1_recovery.h>

namespace proofdesk::crypto {
namespace {

// Half the group order n, big-endian: the largest s Ethereum accepts (EIP-2).
constexpr unsigned char kHalfOrder[32] = {
    0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0};

const secp256k1_context* context() {
    // Created once and never mutated afterwards, so it is safe to share between threads.
    static const secp256k1_context* ctx =
        secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY);
    return ctx;
}

QByteArray addressOfPublicKey(const secp256k1_pubkey& pubkey) {
    unsigned char serialized[65];
    size_t length = sizeof serialized;
    secp256k1_ec_pubkey_serialize(context(), serialized, &length, &pubkey,
                                  SECP256K1_EC_UNCOMPRESSED);
    const QByteArray hash =
        keccak256(QByteArray(reinterpret_cast<const char*>(serialized + 1), 64));
    return hash.right(20);
}

} // namespace

SignatureProblem parseSignature(const QByteArray& raw65, RecoverableSignature* out) {
    if (raw65.size() != 65) {
        return SignatureProblem::WrongLength;
    }
    int v = static_cast<unsigned char>(raw65[64]);
    if (v == 27 || v == 28) {
        v -= 27;
    }
    if (v != 0 && v != 1) {
        return SignatureProblem::BadRecoveryId;
    }
    const QByteArray s = raw65.mid(32, 32);
    if (std::memcmp(s.constData(), kHalfOrder, 32) > 0) {
        return SignatureProblem::HighS;
    }
    out->r = raw65.left(32);
    out->s = s;
    out->recoveryId = v;
    return SignatureProblem::None;
}

std::optional<QByteArray> recoverAddress(const QByteArray& digest32,
                                         const RecoverableSignature& signature) {
    if (digest32.size() != 32 || signature.r.size() != 32 || signature.s.size() != 32) {
        return std::nullopt;
    }
    unsigned char compact[64];
    std::memcpy(compact, signature.r.constData(), 32);
    std::memcpy(compact + 32, signature.s.constData(), 32);
    secp256k1_ecdsa_recoverable_signature sig;
    if (!secp256k1_ecdsa_recoverable_signature_parse_compact(context(), &sig, compact,
                                                             signature.recoveryId)) {
        return std::nullopt;
    }
    secp256k1_pubkey pubkey;
    if (!secp256k1_ecdsa_recover(context(), &pubkey, &sig,
                                 reinterpret_cast<const unsigned char*>(digest32.constData()))) {
        return std::nullopt;
    }
    return addressOfPublicKey(pubkey);
}

bool isValidPrivateKey(const QByteArray& privateKey32) {
    return privateKey32.size() == 32 &&
           secp256k1_ec_seckey_verify(
               context(), reinterpret_cast<const unsigned char*>(privateKey32.constData())) == 1;
}

std::optional<QByteArray> signDigest(const QByteArray& digest32, const QByteArray& privateKey32) {
    if (digest32.size() != 32 || !isValidPrivateKey(privateKey32)) {
        return std::nullopt;
    }
    secp256k1_ecdsa_recoverable_signature sig;
    if (!secp256k1_ecdsa_sign_recoverable(
            context(), &sig, reinterpret_cast<const unsigned char*>(digest32.constData()),
            reinterpret_cast<const unsigned char*>(privateKey32.constData()), nullptr, nullptr)) {
        return std::nullopt;
    }
    unsigned char compact[64];
    int recoveryId = 0;
    secp256k1_ecdsa_recoverable_signature_serialize_compact(context(), compact, &recoveryId, &sig);
    QByteArray out(reinterpret_cast<const char*>(compact), 64);
    out.append(static_cast<char>(27 + recoveryId));
    return out;
}

std::optional<QByteArray> addressOfPrivateKey(const QByteArray& privateKey32) {
    if (!isValidPrivateKey(privateKey32)) {
        return std::nullopt;
    }
    secp256k1_pubkey pubkey;
    if (!secp256k1_ec_pubkey_create(
            context(), &pubkey, reinterpret_cast<const unsigned char*>(privateKey32.constData()))) {
        return std::nullopt;
    }
    return addressOfPublicKey(pubkey);
}

} // namespace proofdesk::crypto
