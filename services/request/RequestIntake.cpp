#include "RequestIntake.h"

#include "RequestInternal.h"
#include "api/RequestBodies.h"
#include "core/QtText.h"
#include "core/Ulid.h"

#include <set>

namespace proofdesk::request {

using nlohmann::json;

std::string RequestIntake::submit(const QString& projectId, const api::UserRequest& request) {
    const std::string requestId = core::newUlid(m_clock.nowMs()).toStdString();
    const qint64 now = m_clock.nowMs();
    m_store.write([&](QSqlDatabase&) {
        m_queries.insertRequestIn(requestId, projectId, api::canonicalJson(request));
        for (const api::ChainRequest& chainRequest : request.chains) {
            json selectors = json::array();
            std::set<std::string> hashing;
            for (const api::ProvingRequest& proving : chainRequest.provings) {
                selectors.push_back(proving.selector.text);
                hashing.insert(proving.hashingFunctions.begin(), proving.hashingFunctions.end());
            }
            const json typ{{"kind", "DATA_REQUEST"},
                           {"request_id", requestId},
                           {"chain_id", chainRequest.chainId},
                           {"destination_chain_id", request.destinationChainId},
                           {"selectors", selectors},
                           {"hashing_functions", hashing},
                           {"fact_hashes", chainRequest.factHashes.size()}};
            std::optional<qint64> deadline;
            if (auto maxTime = api::maxTimeFor(request, chainRequest.chainId)) {
                deadline = now + qint64(*maxTime * 1000.0);
            }
            m_queries.planQueryIn(requestId, std::nullopt, typ,
                                  detail::planChainQuery(chainRequest, request.destinationChainId),
                                  deadline);
        }
    });
    m_jobs.wake();
    return requestId;
}

} // namespace proofdesk::request
