#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

namespace proofdesk::test {

// A wallet for tests: signs EIP-712 typed data with a private key, as a user's wallet would.
class TestWallet {
public:
    static TestWallet random();
    explicit TestWallet(const QByteArray& privateKey32);

    QString address() const; // 0x + 40 lowercase hex
    // 0x-hex 65-byte signature (v = 27/28) over the typed data's EIP-712 digest.
    std::string signTypedData(const nlohmann::json& typedData) const;

private:
    QByteArray m_key;
    QByteArray m_address;
};

} // namespace proofdesk::test
