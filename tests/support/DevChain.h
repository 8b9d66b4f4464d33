#pragma once

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>
#include <string>

namespace httplib {
class Client;
}

namespace proofdesk::test {

// A real local Ethereum dev chain: anvil from the npm package @foundry-rs/anvil (installed by
// .ci/install-deps into tests/e2e/node_modules), on a free loopback port, chain id 11155111.
class DevChain {
public:
    DevChain();
    ~DevChain();

    // The anvil binary, or empty when it is not installed (tests then skip).
    static QString anvilPath();
    bool start(QString* error);
    QString url() const { return m_url; }

    nlohmann::json rpc(const std::string& method,
                       const nlohmann::json& params = nlohmann::json::array());
    void mine(int blocks);
    std::int64_t head();
    // Sends a transaction from anvil's first account and returns its receipt (mined at once).
    nlohmann::json send(const nlohmann::json& transaction);
    // Deploys a contract whose constructor stores slot0 = 0x2a, slot1 = 7 and whose code stores
    // the first calldata word at slot 2. Returns its address.
    std::string deployStorageContract();
    static std::string firstAccount() { return "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"; }

private:
    QTemporaryDir m_logDir;
    QProcess m_process;
    QString m_url;
    std::unique_ptr<httplib::Client> m_client;
};

} // namespace proofdesk::test
