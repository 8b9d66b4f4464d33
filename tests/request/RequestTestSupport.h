#pragma once

// What the request-service suites share (tst_request_intake, tst_request_service).

#include "server/LocalServer.h"

#include <nlohmann/json.hpp>

#include <QString>

namespace proofdesk::test {

// A server whose RPC retries and grow-order polls are quick, whose requests are split into
// chunks of two blocks (so every multi-block case crosses a chunk boundary), whose body read
// times out after a second, and whose Sepolia (11155111) RPC is `rpcUrl` when given.
inline server::ServerOptions requestTestOptions(const QString& rpcUrl) {
    server::ServerOptions options;
    options.requests.rpc.attempts = 2;
    options.requests.rpc.backoffMs = 10;
    options.requests.rpc.timeoutMs = 5000;
    options.requests.growPollMs = 50;
    options.requests.chunkSize = 2;
    options.limits.readTimeoutSeconds = 1;
    if (!rpcUrl.isEmpty()) {
        options.requests.chains.setRpcUrl(QStringLiteral("11155111"), rpcUrl);
    }
    return options;
}

// A 32-byte fact hash as the request API takes it: 32 integers, each `fill`.
inline nlohmann::json fact32(int fill) {
    return nlohmann::json::array_t(32, fill);
}

} // namespace proofdesk::test
