#include "DevChain.h"

#include <httplib.h>

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QThread>

#include <stdexcept>

#include <csignal>
#include <sys/prctl.h>

namespace proofdesk::test {

DevChain::DevChain() = default;

DevChain::~DevChain() {
    if (m_process.state() != QProcess::NotRunning) {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

QString DevChain::anvilPath() {
    const QString path = QStringLiteral(PROOFDESK_SOURCE_DIR) +
                         QStringLiteral("/tests/e2e/node_modules/@foundry-rs/anvil-linux-amd64/"
                                        "bin/anvil");
    return QFileInfo(path).isExecutable() ? path : QString();
}

bool DevChain::start(QString* error) {
    const QString anvil = anvilPath();
    if (anvil.isEmpty()) {
        *error = QStringLiteral("anvil is not installed (npm ci --prefix tests/e2e)");
        return false;
    }
    // anvil logs every block it mines: into a file, so a full pipe never stalls it.
    const QString log = m_logDir.filePath(QStringLiteral("anvil.log"));
    m_process.setProcessChannelMode(QProcess::MergedChannels);
    m_process.setStandardOutputFile(log);
    // The chain dies with the test, even when the test crashes.
    m_process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_process.start(anvil, {QStringLiteral("--host"), QStringLiteral("127.0.0.1"),
                            QStringLiteral("--port"), QStringLiteral("0"),
                            QStringLiteral("--chain-id"), QStringLiteral("11155111")});
    if (!m_process.waitForStarted(10000)) {
        *error = QStringLiteral("anvil did not start: ") + m_process.errorString();
        return false;
    }
    const QRegularExpression listening(QStringLiteral("Listening on ([0-9.]+):(\\d+)"));
    QByteArray output;
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired() && m_process.state() == QProcess::Running) {
        QFile file(log);
        if (file.open(QIODevice::ReadOnly)) {
            output = file.readAll();
        }
        const auto match = listening.match(QString::fromUtf8(output));
        if (match.hasMatch()) {
            m_url = QStringLiteral("http://%1:%2").arg(match.captured(1), match.captured(2));
            m_client = std::make_unique<httplib::Client>(m_url.toStdString());
            m_client->set_read_timeout(std::chrono::seconds(120));
            // Block 0 of anvil is synthetic (its state root does not hold the funded accounts):
            // mine one so tests never need it.
            mine(1);
            return true;
        }
        QThread::msleep(20);
    }
    *error = QStringLiteral("anvil did not say where it listens: ") + QString::fromUtf8(output);
    return false;
}

nlohmann::json DevChain::rpc(const std::string& method, const nlohmann::json& params) {
    const nlohmann::json body{
        {"jsonrpc", "2.0"}, {"id", 1}, {"method", method}, {"params", params}};
    const auto reply = m_client->Post("/", body.dump(), "application/json");
    if (!reply || reply->status != 200) {
        throw std::runtime_error("anvil did not answer " + method);
    }
    const nlohmann::json answer = nlohmann::json::parse(reply->body);
    if (answer.contains("error")) {
        throw std::runtime_error("anvil refused " + method + ": " + answer["error"].dump());
    }
    return answer["result"];
}

void DevChain::mine(int blocks) {
    // 12 s apart, as on Ethereum, so every block has its own timestamp.
    rpc("anvil_mine", {"0x" + QString::number(blocks, 16).toStdString(), "0xc"});
}

std::int64_t DevChain::head() {
    return std::stoll(rpc("eth_blockNumber").get<std::string>(), nullptr, 16);
}

nlohmann::json DevChain::send(const nlohmann::json& transaction) {
    nlohmann::json tx = transaction;
    tx["from"] = firstAccount();
    const std::string hash = rpc("eth_sendTransaction", nlohmann::json::array({tx}));
    // Automine includes it in a block of its own; the receipt appears once that block is sealed.
    QDeadlineTimer deadline(20000);
    nlohmann::json receipt = rpc("eth_getTransactionReceipt", nlohmann::json::array({hash}));
    while (receipt.is_null() && !deadline.hasExpired()) {
        QThread::msleep(10);
        receipt = rpc("eth_getTransactionReceipt", nlohmann::json::array({hash}));
    }
    if (receipt.is_null()) {
        throw std::runtime_error("transaction " + hash + " was not mined");
    }
    return receipt;
}

std::string DevChain::deployStorageContract() {
    // Constructor: sstore(0, 0x2a); sstore(1, 7); return the 7-byte runtime
    // (sstore(2, calldataload(0)); stop).
    const std::string initCode = "0x602a600055600760015560076016600039600760"
                                 "00f360003560025500";
    const nlohmann::json receipt = send({{"data", initCode}, {"gas", "0x100000"}});
    return receipt.at("contractAddress");
}

} // namespace proofdesk::test
