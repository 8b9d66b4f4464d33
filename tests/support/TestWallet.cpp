#include "TestWallet.h"

#include "core/SecureRandom.h"
#include "crypto/Eip712.h"
#include "crypto/Hex.h"
#include "crypto/Secp256k1.h"

namespace proofdesk::test {

TestWallet TestWallet::random() {
    for (;;) {
        const QByteArray key = core::secureRandomBytes(32);
        if (crypto::isValidPrivateKey(key)) {
            return TestWallet(key);
        }
    }
}

TestWallet::TestWallet(const QByteArray& privateKey32)
    : m_key(privateKey32), m_address(crypto::addressOfPrivateKey(privateKey32).value()) {}

QString TestWallet::address() const {
    return crypto::toHex0x(m_address);
}

std::string TestWallet::signTypedData(const nlohmann::json& typedData) const {
    const QByteArray signature =
        crypto::signDigest(crypto::eip712::signingDigest(typedData), m_key).value();
    return crypto::toHex0x(signature).toStdString();
}

} // namespace proofdesk::test
