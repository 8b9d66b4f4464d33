#include "Wallet.h"

#include "core/SecureRandom.h"
#include "crypto/Eip712.h"
#include "crypto/Hex.h"
#include "crypto/Secp256k1.h"

#include <QObject>

namespace proofdesk::client {

Wallet Wallet::generate() {
    for (;;) {
        QByteArray key = core::secureRandomBytes(32);
        if (crypto::isValidPrivateKey(key)) {
            return Wallet(key);
        }
    }
}

std::optional<Wallet> Wallet::fromPrivateKeyHex(const QString& text, QString* error) {
    const auto bytes = crypto::fromHex(text.trimmed());
    if (!bytes || bytes->size() != 32) {
        *error = QObject::tr("A private key is 64 hexadecimal digits (optionally 0x-prefixed).");
        return std::nullopt;
    }
    if (!crypto::isValidPrivateKey(*bytes)) {
        *error = QObject::tr("That number is not a valid secp256k1 private key.");
        return std::nullopt;
    }
    return Wallet(*bytes);
}

Wallet::Wallet(const QByteArray& privateKey32)
    : m_key(privateKey32),
      m_address(crypto::toChecksumAddress(crypto::addressOfPrivateKey(privateKey32).value())) {}

Wallet::~Wallet() {
    m_key.fill('\0');
}

QString Wallet::privateKeyHex() const {
    return crypto::toHex0x(m_key);
}

QString Wallet::signTypedData(const nlohmann::json& typedData) const {
    return crypto::toHex0x(
        crypto::signDigest(crypto::eip712::signingDigest(typedData), m_key).value());
}

std::optional<QString> recoverTypedDataSigner(const nlohmann::json& typedData,
                                              const QString& signatureHex, QString* error) {
    const auto raw = crypto::fromHex(signatureHex.trimmed());
    crypto::RecoverableSignature signature;
    if (!raw || crypto::parseSignature(*raw, &signature) != crypto::SignatureProblem::None) {
        *error = QObject::tr("A signature is 65 bytes of hex (r, s, v) with a low s.");
        return std::nullopt;
    }
    QByteArray digest;
    try {
        digest = crypto::eip712::signingDigest(typedData);
    } catch (const std::exception& bad) {
        *error =
            QObject::tr("The typed data cannot be hashed: %1").arg(QString::fromUtf8(bad.what()));
        return std::nullopt;
    }
    const auto address = crypto::recoverAddress(digest, signature);
    if (!address) {
        *error = QObject::tr("No address can be recovered from that signature.");
        return std::nullopt;
    }
    return crypto::toChecksumAddress(*address);
}

} // namespace proofdesk::client
