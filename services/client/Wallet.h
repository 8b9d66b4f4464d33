#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

#include <optional>

namespace proofdesk::client {

// A secp256k1 wallet held in memory for signing the sign-in challenge. The private key is wiped
// when the wallet goes away; it is persisted only through a SecretStore (the OS keychain).
class Wallet {
public:
    // A fresh key from the OS random source.
    static Wallet generate();
    // 64 hex digits, with or without 0x; nullopt with a reason otherwise.
    static std::optional<Wallet> fromPrivateKeyHex(const QString& text, QString* error);

    Wallet(const Wallet& other) = default;
    Wallet& operator=(const Wallet& other) = default;
    ~Wallet();

    // EIP-55 checksummed 0x address.
    const QString& address() const { return m_address; }
    QString privateKeyHex() const;
    // Signs exactly the given EIP-712 typed data; 0x r‖s‖v.
    QString signTypedData(const nlohmann::json& typedData) const;

private:
    explicit Wallet(const QByteArray& privateKey32);

    QByteArray m_key;
    QString m_address;
};

// For the external-signer path: the address that produced `signatureHex` over the typed data,
// or nullopt with a reason (malformed signature, high s, no recovery).
std::optional<QString> recoverTypedDataSigner(const nlohmann::json& typedData,
                                              const QString& signatureHex, QString* error);

} // namespace proofdesk::client
