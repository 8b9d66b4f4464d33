#include "GrowOrderScheduler.h"

#include "RequestInternal.h"
#include "chain/BlockHeader.h"
#include "chain/ChainError.h"
#include "chain/Mmr.h"
#include "core/ServiceError.h"
#include "core/Ulid.h"

#include <QSqlQuery>

#include <set>

namespace proofdesk::request {

using namespace detail;
using nlohmann::json;

namespace {

[[noreturn]] void badOrder(const char* code, const std::string& detail) {
    throw core::ServiceError(core::ErrorKind::BadRequest, code, detail);
}

std::optional<api::GrowOrder> orderFrom(QSqlQuery& row) {
    if (!row.next()) {
        return std::nullopt;
    }
    return json::parse(core::str(row.value(0))).get<api::GrowOrder>();
}

bool isFinished(const std::string& status) {
    return status == "CANCELLED" || status == "COMPLETED" || status == "FAILED";
}

} // namespace

GrowOrderScheduler::GrowOrderScheduler(core::Store& store, const core::Clock& clock,
                                       core::JobEngine& jobs, const RequestSettings& settings,
                                       RequestQueries& queries, ChainDataStore& chainData)
    : m_store(store), m_chainData(chainData), m_clock(clock), m_jobs(jobs), m_settings(settings),
      m_queries(queries) {}

GrowOrderScheduler::~GrowOrderScheduler() {
    stop();
}

void GrowOrderScheduler::start() {
    m_stopping = false;
    if (!m_thread.joinable()) {
        m_thread = std::thread([this] { loop(); });
    }
}

void GrowOrderScheduler::stop() {
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
        m_pending = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void GrowOrderScheduler::wake() {
    {
        std::lock_guard lock(m_mutex);
        m_pending = true;
    }
    m_wake.notify_all();
}

api::GrowOrder GrowOrderScheduler::create(const QString& projectId,
                                          const api::GrowOrderCreation& request) {
    for (const auto& [name, id] : {std::pair{"accumulated_chain_id", request.accumulatedChainId},
                                   std::pair{"settle_chain_id", request.settleChainId}}) {
        if (!chain::knownChainIds().contains(core::qstr(id))) {
            badOrder("INVALID_CHAIN_ID", std::string(name) + " \"" + id + "\" is not a ChainId");
        }
    }
    if (!chain::canBeOrigin(core::qstr(request.accumulatedChainId))) {
        badOrder("UNSUPPORTED_ORIGIN_CHAIN",
                 "blocks of " + request.accumulatedChainId + " cannot be accumulated here");
    }
    if (request.hashingFunctions.empty()) {
        badOrder("INVALID_HASHING_FUNCTIONS", "hashing_functions names no hashing function");
    }
    std::vector<std::string> functions;
    for (const std::string& given : request.hashingFunctions) {
        const auto function = chain::parseHashingFunction(core::qstr(given));
        if (!function) {
            badOrder("INVALID_HASHING_FUNCTIONS", "\"" + given + "\" is not KECCAK or POSEIDON");
        }
        const std::string name = chain::hashingFunctionName(*function).toStdString();
        if (std::find(functions.begin(), functions.end(), name) != functions.end()) {
            badOrder("INVALID_HASHING_FUNCTIONS", name + " is listed twice");
        }
        functions.push_back(name);
    }
    if (request.minBatchSize < 1) {
        badOrder("INVALID_MIN_BATCH_SIZE", "min_batch_size must be at least 1");
    }
    if ((request.startBlockNumber && *request.startBlockNumber < 0) ||
        (request.finishBlockNumber && *request.finishBlockNumber < 0)) {
        badOrder("INVALID_BLOCK_NUMBER", "block numbers are int64 >= 0");
    }
    if (!m_settings.chains.rpcUrl(core::qstr(request.accumulatedChainId))) {
        badOrder("CHAIN_NOT_CONFIGURED",
                 "no JSON-RPC URL is set for chain " + request.accumulatedChainId + ": " +
                     core::howToSet(m_settings.settingsSurface, core::Setting::ChainRpc,
                                    request.accumulatedChainId));
    }
    std::int64_t start = 0;
    if (request.startBlockNumber) {
        start = *request.startBlockNumber;
    } else {
        // docs/architecture.md: the block after the newest one already accumulated for this chain,
        // else the head at creation.
        if (const auto newest = m_chainData.newestAccumulatedBlock(request.accumulatedChainId)) {
            start = *newest + 1;
        } else {
            try {
                auto rpc = rpcFor(m_settings, request.accumulatedChainId, nullptr);
                start = std::int64_t(chain::parseQuantity(
                    rpc->call("eth_blockNumber", json::array()), "eth_blockNumber"));
            } catch (const chain::ChainError& failure) {
                throw core::ServiceError(
                    core::ErrorKind::Internal, "CHAIN_UNAVAILABLE",
                    std::string("cannot read the chain head to start the order: ") +
                        failure.what());
            }
        }
    }
    if (request.finishBlockNumber && *request.finishBlockNumber < start) {
        badOrder("INVALID_BLOCK_NUMBER", "finish_block_number " +
                                             std::to_string(*request.finishBlockNumber) +
                                             " is before the start block " + std::to_string(start));
    }
    api::GrowOrder order;
    order.internalId = core::newUlid(m_clock.nowMs()).toStdString();
    order.accumulatedChainId = request.accumulatedChainId;
    order.settleChainId = request.settleChainId;
    order.hashingFunctions = functions;
    order.minBatchSize = request.minBatchSize;
    order.startBlockNumber = start;
    order.nextFromBlockNumber = start;
    order.finishBlockNumber = request.finishBlockNumber;
    order.createdAt = order.updatedAt = core::toIsoTimestamp(m_clock.now()).toStdString();
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("INSERT INTO grow_orders (id, project_id, status, doc) "
                                    "VALUES (?, ?, ?, ?)"),
                     {core::qstr(order.internalId), projectId, core::qstr(order.status),
                      core::qstr(json(order).dump())});
    });
    wake();
    return order;
}

std::vector<api::GrowOrder> GrowOrderScheduler::list(const QString& projectId) {
    std::vector<api::GrowOrder> out;
    QSqlQuery rows = m_store.exec(
        QStringLiteral("SELECT doc FROM grow_orders WHERE project_id = ? ORDER BY id DESC"),
        {projectId});
    while (auto order = orderFrom(rows)) {
        out.push_back(std::move(*order));
    }
    return out;
}

std::optional<api::GrowOrder> GrowOrderScheduler::order(const QString& projectId,
                                                        const std::string& id) {
    QSqlQuery row =
        m_store.exec(QStringLiteral("SELECT doc FROM grow_orders WHERE id = ? AND project_id = ?"),
                     {core::qstr(id), projectId});
    return orderFrom(row);
}

std::optional<api::GrowOrder> GrowOrderScheduler::cancel(const QString& projectId,
                                                         const std::string& id) {
    std::optional<api::GrowOrder> result;
    m_store.write([&](QSqlDatabase&) {
        QSqlQuery row = m_store.exec(
            QStringLiteral("SELECT doc FROM grow_orders WHERE id = ? AND project_id = ?"),
            {core::qstr(id), projectId});
        result = orderFrom(row);
        if (!result || isFinished(result->status) || result->status == "CANCEL_REQUESTED") {
            return; // a finished order is returned unchanged
        }
        const std::string now = core::toIsoTimestamp(m_clock.now()).toStdString();
        if (result->activeQueryId) {
            result->status = "CANCEL_REQUESTED";
        } else {
            result->status = "CANCELLED";
            result->cancelledAt = now;
            result->completedAt = now;
        }
        result->updatedAt = now;
        m_store.exec(
            QStringLiteral("UPDATE grow_orders SET status = ?, doc = ? WHERE id = ?"),
            {core::qstr(result->status), core::qstr(json(*result).dump()), core::qstr(id)});
    });
    return result;
}

void GrowOrderScheduler::settleIn(const std::string& queryId, bool succeeded) {
    const std::optional<StoredQuery> batch = m_queries.load(queryId);
    if (!batch || !batch->growOrderId) {
        return;
    }
    QSqlQuery row = m_store.exec(QStringLiteral("SELECT doc FROM grow_orders WHERE id = ?"),
                                 {core::qstr(*batch->growOrderId)});
    std::optional<api::GrowOrder> found = orderFrom(row);
    if (!found) {
        return;
    }
    api::GrowOrder& order = *found;
    const json& typ = batch->typ;
    const std::string now = core::toIsoTimestamp(m_clock.now()).toStdString();
    order.updatedAt = now;
    if (!succeeded) {
        // The failed batch stays named in active_query_id: its actions say why.
        order.status = "FAILED";
        order.completedAt = now;
    } else {
        order.nextFromBlockNumber = typ.at("to_block").get<std::int64_t>() + 1;
        order.activeQueryId.reset();
        if (order.status == "CANCEL_REQUESTED") {
            order.status = "CANCELLED";
            order.cancelledAt = now;
            order.completedAt = now;
        } else if (order.finishBlockNumber &&
                   order.nextFromBlockNumber > *order.finishBlockNumber) {
            order.status = "COMPLETED";
            order.completedAt = now;
        }
    }
    if (order.status == "CANCEL_REQUESTED" && !succeeded) {
        order.status = "CANCELLED";
        order.cancelledAt = now;
    }
    m_store.exec(
        QStringLiteral("UPDATE grow_orders SET status = ?, doc = ? WHERE id = ?"),
        {core::qstr(order.status), core::qstr(json(order).dump()), core::qstr(order.internalId)});
    wake();
}

void GrowOrderScheduler::loop() {
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait_for(lock, std::chrono::milliseconds(m_settings.growPollMs),
                            [this] { return m_pending; });
            m_pending = false;
            if (m_stopping) {
                return;
            }
        }
        try {
            scheduleBatches();
        } catch (const std::exception&) {
            // A store hiccup: the next round tries again.
        }
    }
}

void GrowOrderScheduler::scheduleBatches() {
    std::vector<api::GrowOrder> waiting;
    {
        QSqlQuery rows =
            m_store.exec(QStringLiteral("SELECT doc FROM grow_orders WHERE status = 'ACTIVE'"));
        while (auto order = orderFrom(rows)) {
            if (!order->activeQueryId) {
                waiting.push_back(std::move(*order));
            }
        }
    }
    std::map<std::string, std::optional<std::int64_t>> heads;
    for (const api::GrowOrder& order : waiting) {
        if (m_stopping) {
            return;
        }
        auto& head = heads[order.accumulatedChainId];
        if (!heads.count(order.accumulatedChainId) || !head) {
            try {
                auto rpc = rpcFor(m_settings, order.accumulatedChainId, nullptr);
                head = std::int64_t(chain::parseQuantity(
                    rpc->call("eth_blockNumber", json::array()), "eth_blockNumber"));
            } catch (const chain::ChainError&) {
                continue; // the chain is unreachable now; the next round tries again
            }
        }
        const std::int64_t from = order.nextFromBlockNumber;
        std::int64_t to = *head;
        if (order.finishBlockNumber) {
            to = std::min(to, *order.finishBlockNumber);
        }
        if (to < from) {
            continue;
        }
        const bool finalBatch = order.finishBlockNumber && to == *order.finishBlockNumber;
        if (to - from + 1 < order.minBatchSize && !finalBatch) {
            continue; // not enough new blocks yet
        }
        // At most maxBatchSize blocks per batch, unless the order asks for more at once.
        to = std::min(to, from + std::max(m_settings.maxBatchSize, order.minBatchSize) - 1);
        m_store.write([&](QSqlDatabase&) {
            QSqlQuery row = m_store.exec(
                QStringLiteral("SELECT doc FROM grow_orders WHERE id = ? AND status = 'ACTIVE'"),
                {core::qstr(order.internalId)});
            std::optional<api::GrowOrder> current = orderFrom(row);
            if (!current || current->activeQueryId ||
                current->nextFromBlockNumber != order.nextFromBlockNumber) {
                return; // cancelled or changed meanwhile
            }
            const json typ{{"kind", "GROW_ORDER_BATCH"},
                           {"grow_order_id", current->internalId},
                           {"chain_id", current->accumulatedChainId},
                           {"settle_chain_id", current->settleChainId},
                           {"from_block", from},
                           {"to_block", to},
                           {"hashing_functions", current->hashingFunctions}};
            current->activeQueryId = m_queries.planQueryIn(
                {}, current->internalId, typ,
                planGrowBatch(current->accumulatedChainId, current->settleChainId,
                              current->hashingFunctions, from, to),
                std::nullopt);
            current->updatedAt = core::toIsoTimestamp(m_clock.now()).toStdString();
            m_store.exec(QStringLiteral("UPDATE grow_orders SET doc = ? WHERE id = ?"),
                         {core::qstr(json(*current).dump()), core::qstr(current->internalId)});
        });
        m_jobs.wake();
    }
}

} // namespace proofdesk::request
