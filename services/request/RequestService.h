#pragma once

#include "UserRequest.h"
#include "api/RequestWire.h"
#include "chain/ChainRegistry.h"
#include "chain/JsonRpcClient.h"
#include "core/Clock.h"
#include "core/JobEngine.h"
#include "core/Store.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace proofdesk::request {

// Looks a fact hash (0x + 64 hex) up in the proof service's fact registry; the registry entry's
// id when it is there.
using FactLookup =
    std::function<std::optional<std::string>(const std::string& factHash, bool mocked)>;

struct RequestSettings {
    chain::ChainRegistry chains;
    chain::RpcSettings rpc;
    int growPollMs = 2000;             // how often grow orders look at the chain head
    std::int64_t maxBatchSize = 10000; // blocks per grow-order batch query
    // Blocks (headers) or proofs fetched, checked and let go at a time: bounds an action's memory.
    std::size_t chunkSize = 250;
};

struct CreateGrowOrder {
    std::string accumulatedChainId;
    std::string settleChainId;
    std::vector<std::string> hashingFunctions;
    std::int64_t minBatchSize = 1;
    std::optional<std::int64_t> startBlockNumber;
    std::optional<std::int64_t> finishBlockNumber;
};

struct ProvenValueFilter {
    std::string destinationChainId;
    std::optional<std::string> originChainId;
    std::optional<std::int64_t> blockNumber;
    std::optional<std::string> queryId;
    int limit = 50;
    int offset = 0;
};

struct MmrStateView {
    std::string chainId;
    std::string hashingFunction;
    std::uint64_t leaves = 0;
    std::uint64_t size = 0;
    std::string root;
    std::vector<std::string> peaks;
    std::string updatedAt;
};

// The request service (docs/api.md): a request becomes one query per origin chain whose
// actions (resolve blocks, prove headers, accumulate MMRs, prove accounts and storage, check
// facts, deliver) run as jobs on the job engine, in dependency order, against the chain's
// JSON-RPC; grow orders extend a chain's MMRs in batches, watched by a scheduler thread.
class RequestService {
public:
    RequestService(Store& store, const Clock& clock, JobEngine& jobs, RequestSettings settings,
                   FactLookup facts);
    ~RequestService();
    RequestService(const RequestService&) = delete;
    RequestService& operator=(const RequestService&) = delete;

    static std::vector<Migration> migrations();

    // After the job engine has started: settles queries whose job ran out of attempts while the
    // server was down, and starts the grow-order scheduler.
    void start();
    void stop();

    // Validates (parseUserRequest), plans and stores the queries and actions, and enqueues the
    // actions that wait for nothing, all in one transaction. Returns the request id.
    std::string submit(const QString& projectId, const nlohmann::json& body);
    std::vector<api::RequestQuery> queries(const std::string& requestId);
    std::vector<api::RequestAction> actions(const std::string& queryId);

    api::GrowOrder createGrowOrder(const QString& projectId, const CreateGrowOrder& order);
    std::vector<api::GrowOrder> growOrders(const QString& projectId);
    std::optional<api::GrowOrder> growOrder(const QString& projectId, const std::string& id);
    std::optional<api::GrowOrder> cancelGrowOrder(const QString& projectId, const std::string& id);

    std::pair<std::vector<api::ProvenValue>, int> provenValues(const ProvenValueFilter& filter);
    std::vector<MmrStateView> mmrStates(const std::optional<std::string>& chainId);

    const RequestSettings& settings() const { return m_settings; }
    // Replaces the chain RPC URLs of a running service (the console's Settings); jobs that start
    // afterwards use them.
    void setChainRpcUrls(std::map<QString, QString> urls) {
        m_settings.chains.replaceAll(std::move(urls));
    }
    // Wakes the grow-order scheduler now (tests, and after a create).
    void wakeScheduler();

private:
    struct ActionRow;
    struct QueryRow;
    struct Outcome;
    JobOutcome runAction(const JobRecord& job, JobContext& context);
    Outcome perform(const QueryRow& query, const ActionRow& action, JobContext& context);
    // The actions' work (docs/api.md, "Queries and actions").
    Outcome resolveBlocks(const QueryRow& query, const ActionRow& action,
                          const std::vector<ActionRow>& actions, JobContext& context);
    Outcome proveHeaders(const QueryRow& query, const ActionRow& action,
                         const std::vector<ActionRow>& actions, JobContext& context);
    Outcome accumulateMmr(const QueryRow& query, const ActionRow& action,
                          const std::vector<ActionRow>& actions, JobContext& context);
    Outcome proveAccount(const QueryRow& query, const ActionRow& action,
                         const std::vector<ActionRow>& actions, JobContext& context);
    Outcome checkFacts(const QueryRow& query, const ActionRow& action,
                       const std::vector<ActionRow>& actions, JobContext& context);
    Outcome deliver(const QueryRow& query, const ActionRow& action,
                    const std::vector<ActionRow>& actions, JobContext& context);
    void completeIn(const QueryRow& query, const ActionRow& action, Outcome& outcome);
    void failIn(const std::string& queryId, int index, const std::string& reason);
    void settleGrowOrderIn(const std::string& queryId, bool succeeded);
    std::optional<QueryRow> loadQuery(const std::string& id);
    std::vector<ActionRow> loadActions(const std::string& queryId);
    std::string planQueryIn(const std::string& requestId, const std::optional<std::string>& growId,
                            const nlohmann::json& typ, const nlohmann::json& plan,
                            const std::optional<qint64>& deadlineMs);
    std::unique_ptr<chain::JsonRpcClient> rpcFor(const std::string& chainId,
                                                 JobContext* context) const;
    std::int64_t resolveTimestamp(chain::JsonRpcClient& rpc, const std::string& chainId,
                                  std::int64_t timestamp, std::int64_t head);
    void schedulerLoop();
    void scheduleGrowOrders();

    Store& m_store;
    const Clock& m_clock;
    JobEngine& m_jobs;
    RequestSettings m_settings;
    FactLookup m_facts;

    std::mutex m_timestampMutex;
    std::map<std::string, std::map<std::int64_t, std::int64_t>> m_timestamps; // chain -> n -> t

    std::mutex m_schedulerMutex;
    std::condition_variable m_schedulerWake;
    bool m_schedulerPending = false;
    std::atomic<bool> m_stopping{false};
    std::thread m_scheduler;
};

} // namespace proofdesk::request
