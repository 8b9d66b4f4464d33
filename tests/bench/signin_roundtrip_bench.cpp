// Sign-in round trips per second on loopback: GET /auth/web3/challenge then POST
// /auth/web3/session (channel bearer, signature made by the client as a wallet would), from
// several concurrent clients against an in-process server with a durable store.
//
// Usage: signin_roundtrip_bench [--clients N] [--seconds S] [--data-dir DIR]
// Prints one line per figure; target (issue #2): >= 300 round trips/s on the 2-core machine.

#include "TestHttp.h"
#include "TestWallet.h"

#include "server/LocalServer.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

using namespace proofdesk;
using SteadyClock = std::chrono::steady_clock;

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    int clients = 8;
    double seconds = 5;
    QString dataDir;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--clients")) {
            clients = std::atoi(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--seconds")) {
            seconds = std::atof(argv[i + 1]);
        } else if (!std::strcmp(argv[i], "--data-dir")) {
            dataDir = QString::fromLocal8Bit(argv[i + 1]);
        }
    }
    QTemporaryDir temporary;
    server::ServerOptions options;
    options.dataDir = dataDir.isEmpty() ? temporary.path() : dataDir;
    options.listen = {QStringLiteral("127.0.0.1"), 0};
    server::LocalServer server(options);
    QString error;
    if (!server.start(&error)) {
        std::fprintf(stderr, "server: %s\n", qPrintable(error));
        return 1;
    }
    const QString url = server.mainUrl();

    std::atomic<long> roundTrips{0};
    std::atomic<long> failures{0};
    std::atomic<bool> stop{false};
    std::vector<double> latencies[64];
    std::vector<std::thread> threads;
    clients = std::clamp(clients, 1, 64);
    for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
            test::TestHttp http(url);
            while (!stop.load()) {
                const test::TestWallet wallet = test::TestWallet::random();
                const auto start = SteadyClock::now();
                const test::Reply challenge =
                    http.get("/auth/web3/challenge?wallet=" + wallet.address().toStdString());
                const nlohmann::json body = challenge.json();
                if (challenge.status != 200) {
                    ++failures;
                    continue;
                }
                const nlohmann::json session = {{"wallet", wallet.address().toStdString()},
                                                {"challengeToken", body["challengeToken"]},
                                                {"signature", wallet.signTypedData(body["eip712"])},
                                                {"channel", "bearer"}};
                const test::Reply reply = http.postJson("/auth/web3/session", session);
                if (reply.status != 200) {
                    ++failures;
                    continue;
                }
                latencies[c].push_back(
                    std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count());
                ++roundTrips;
            }
        });
    }
    const auto begin = SteadyClock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& thread : threads) {
        thread.join();
    }
    const double elapsed = std::chrono::duration<double>(SteadyClock::now() - begin).count();
    std::vector<double> all;
    for (int c = 0; c < clients; ++c) {
        all.insert(all.end(), latencies[c].begin(), latencies[c].end());
    }
    std::sort(all.begin(), all.end());
    const auto percentile = [&all](double p) {
        return all.empty() ? 0.0 : all[std::min(all.size() - 1, std::size_t(p * all.size()))];
    };
    std::printf("signin_roundtrips_per_second %.1f (target >= 300)\n", roundTrips / elapsed);
    std::printf("signin_roundtrip_p50_ms %.2f\n", percentile(0.50));
    std::printf("signin_roundtrip_p99_ms %.2f\n", percentile(0.99));
    std::printf("signin_failures %ld\n", failures.load());
    std::printf("clients %d seconds %.1f (first sign-in of each wallet: user, project, key)\n",
                clients, elapsed);
    server.stop();
    return failures.load() == 0 ? 0 : 1;
}
