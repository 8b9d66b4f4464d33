// Request-service benchmarks (issue #6 targets), run by hand on a Release build:
//   build-rel/tests/chain_bench            header verification and MMR appends (in memory)
//   build-rel/tests/chain_bench --e2e      also a 10,000-block range request end to end against
//                                          anvil (from tests/e2e/node_modules) through the HTTP API
// Not a timed test: it prints figures; the README and the closing note quote them.

#include "DevChain.h"
#include "TestHttp.h"
#include "TestServer.h"
#include "chain/BlockHeader.h"
#include "chain/Mmr.h"
#include "chain/Rlp.h"
#include "crypto/Keccak.h"

#include <QCoreApplication>
#include <QFile>
#include <QThread>

#include <sys/resource.h>

#include <chrono>
#include <cstdio>

using namespace proofdesk;
using SteadyClock = std::chrono::steady_clock;

namespace {

double secondsSince(SteadyClock::time_point start) {
    return std::chrono::duration<double>(SteadyClock::now() - start).count();
}

void benchHeaders() {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/tests/chain/data/devchain_vectors.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        std::printf("devchain_vectors.json missing\n");
        return;
    }
    const nlohmann::json block = nlohmann::json::parse(file.readAll().toStdString())["block"];
    const chain::BlockHeader header = chain::headerFromRpc(block);
    // RLP encoding of the decoded fields, keccak, comparison with the claimed hash: the work of
    // prove_headers per block once the JSON is parsed.
    const int rounds = 300000;
    int matches = 0;
    auto start = SteadyClock::now();
    for (int i = 0; i < rounds; ++i) {
        QByteArray payload;
        payload.reserve(640);
        for (const QByteArray& field : header.fields) {
            chain::rlpAppendBytes(payload, field);
        }
        matches += crypto::keccak256(chain::rlpEncodeList(payload)) == header.claimedHash;
    }
    double seconds = secondsSince(start);
    std::printf("chain_header_verifications_per_second %.0f (RLP + keccak + compare, Prague, %zu "
                "fields; %d ok; target >= 100000)\n",
                rounds / seconds, header.fields.size(), matches);
    // The same from the RPC JSON (hex decoding included).
    const int jsonRounds = 100000;
    start = SteadyClock::now();
    for (int i = 0; i < jsonRounds; ++i) {
        matches += chain::headerFromRpc(block).hashMatches();
    }
    seconds = secondsSince(start);
    std::printf("chain_headers_from_rpc_json_per_second %.0f (hex decoding included)\n",
                jsonRounds / seconds);
}

void benchMmr(chain::HashingFunction function, int appends) {
    chain::Mmr mmr = chain::Mmr::withGenesis(function);
    chain::MmrHash leaf{};
    const auto start = SteadyClock::now();
    for (int i = 0; i < appends; ++i) {
        leaf[31] = std::uint8_t(i);
        leaf[30] = std::uint8_t(i >> 8);
        leaf[29] = std::uint8_t(i >> 16);
        mmr.append(leaf);
    }
    const chain::MmrHash root = mmr.root();
    const double seconds = secondsSince(start);
    std::printf("mmr_%s_appends_per_second %.0f (%d appends in %.3f s, root %s...)\n",
                qPrintable(chain::hashingFunctionName(function).toLower()), appends / seconds,
                appends, seconds, qPrintable(chain::toHex(root).left(18)));
}

int benchRangeRequest() {
    QString error;
    test::DevChain devChain;
    if (!devChain.start(&error)) {
        std::printf("e2e skipped: %s\n", qPrintable(error));
        return 0;
    }
    // 10,000 blocks (anvil seals about 120 per second here).
    for (int i = 0; i < 10; ++i) {
        devChain.rpc("anvil_mine", {"0x3e8"});
    }
    server::ServerOptions options;
    options.requests.chains.setRpcUrl(QStringLiteral("11155111"), devChain.url());
    test::TestServer server(options);
    if (!server.ok()) {
        std::printf("server failed: %s\n", qPrintable(server.error()));
        return 1;
    }
    test::TestHttp client(server.url());
    const test::Headers key{{"api-key", server.mintKey(QStringLiteral("bench")).toStdString()}};
    for (const char* hashing : {"KECCAK", "POSEIDON"}) {
        const auto start = SteadyClock::now();
        const test::Reply reply = client.postJson(
            "/submit-request",
            {{"destination_chain_id", "1"},
             {"data",
              {{"11155111", {{"block_ranges:1-10000", {{"hashing_functions", {hashing}}}}}}}}},
            key);
        const std::string id = reply.json()["request_id"];
        std::string status;
        while (status != "COMPLETED" && status != "FAILED") {
            QThread::msleep(20);
            status = client.get("/get_queries/" + id).json()["queries"][0]["status"];
        }
        std::printf("range_request_10000_blocks_%s_seconds %.2f (submit to %s)\n",
                    QString::fromLatin1(hashing).toLower().toLatin1().constData(),
                    secondsSince(start), status.c_str());
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("range_request_peak_rss_mib %ld (the whole process: server, client, bench)\n",
                    usage.ru_maxrss / 1024);
    }
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    benchHeaders();
    benchMmr(chain::HashingFunction::Keccak, 2000000);
    benchMmr(chain::HashingFunction::Poseidon, 300000);
    if (app.arguments().contains(QStringLiteral("--e2e"))) {
        return benchRangeRequest();
    }
    return 0;
}
