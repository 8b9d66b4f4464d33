#pragma once

#include <QByteArray>

#include <optional>

namespace proofdesk::crypto {

// A 65-byte Ethereum signature r(32) ‖ s(32) ‖ v(1).
struct RecoverableSignature {
    QByteArray r;
    QByteArray s;
    int recoveryId = 0; // 0 or 1
};

enum class SignatureProblem { None, WrongLength, BadRecoveryId, HighS, InvalidEncoding };

// Parses 65 raw bytes; v may be 0, 1, 27 or 28. Enforces low-s (s <= n/2) as Ethereum does.
SignatureProblem parseSignature(const QByteArray& raw65, RecoverableSignature* out);

// Recovers the signer's 20-byte address from a 32-byte digest; nullopt if recovery fails.
std::optional<QByteArray> recoverAddress(const QByteArray& digest32,
                                         const RecoverableSignature& signature);

// Signs a 32-byte digest (RFC 6979 nonce, low-s); returns r ‖ s ‖ v with v in {27, 28}.
std::optional<QByteArray> signDigest(const QByteArray& digest32, const QByteArray& privateKey32);

// The 20-byte address of a 32-byte private key; nullopt if the key is not valid.
std::optional<QByteArray> addressOfPrivateKey(const QByteArray& privateKey32);

// True if the 32 bytes are a valid secp256k1 secret key.
bool isValidPrivateKey(const QByteArray& privateKey32);

} // namespace proofdesk::crypto
