#include "ActionExecutor.h"

#include "chain/ChainError.h"
#include "core/QtText.h"
#include "core/ServiceError.h"

#include <functional>
#include <variant>

namespace proofdesk::request {

using nlohmann::json;

ActionExecutor::ActionExecutor(core::Store& store, const core::Clock& clock, core::JobEngine& jobs,
                               const RequestSettings& settings, FactLookup facts,
                               RequestQueries& queries, ChainDataStore& chainData)
    : m_store(store), m_clock(clock), m_jobs(jobs), m_settings(settings), m_facts(std::move(facts)),
      m_queries(queries), m_chainData(chainData) {
    m_jobs.registerHandler(kActionJob,
                           [this](const core::JobRecord& job, core::JobContext& context) {
                               return runAction(job, context);
                           });
}

void ActionExecutor::settleInterrupted() {
    for (const auto& [action, jobId] : m_queries.trackedUnfinished()) {
        const std::optional<core::JobRecord> job = m_jobs.job(core::qstr(jobId));
        if (job && job->state == core::JobState::Failed) {
            const std::string& queryId = action.first;
            const int index = action.second;
            const std::string reason = job->error.toStdString();
            m_store.write([&](QSqlDatabase&) { failIn(queryId, index, reason); });
        }
    }
}

core::JobOutcome ActionExecutor::runAction(const core::JobRecord& job, core::JobContext& context) {
    const std::string queryId = job.payload.value("query_id", "");
    const int index = job.payload.value("index", -1);
    const std::optional<StoredQuery> query = m_queries.load(queryId);
    if (!query) {
        return core::JobOutcome::permanent(
            QStringLiteral("query %1 does not exist").arg(QString::fromStdString(queryId)));
    }
    const Actions actions = m_queries.loadActions(queryId);
    if (index < 0 || std::size_t(index) >= actions.size()) {
        return core::JobOutcome::permanent(QStringLiteral("action %1 does not exist").arg(index));
    }
    const StoredAction& action = actions[std::size_t(index)];
    if (action.status != "PENDING" && action.status != "IN_PROGRESS") {
        return core::JobOutcome::done({{"skipped", action.status}}); // cancelled meanwhile
    }
    const std::string name = action.method.value("name", std::string("action"));
    // What the action did is recorded only while this worker still holds the job's lease.
    const auto recordHeld = [&](const std::function<void()>& record) {
        m_store.write([&](QSqlDatabase& db) {
            context.confirmHeldIn(db);
            record();
        });
    };
    recordHeld([&] { m_queries.startIn(queryId, index, job.id); });
    if (query->deadlineMs && m_clock.nowMs() > *query->deadlineMs) {
        recordHeld([&] {
            failIn(queryId, index,
                   "the request's settings.max_time ran out before " + name + " could start");
        });
        return core::JobOutcome::done({{"failed", "deadline"}});
    }
    try {
        const ActionRun run{*query,  action,      actions, context,     m_settings,
                            m_clock, m_chainData, m_facts, m_timestamps};
        ActionOutcome outcome = std::visit([&](const auto& inputs) { return perform(run, inputs); },
                                           inputsOfMethod(action.method));
        recordHeld([&] { completeIn(*query, action, outcome); });
        m_jobs.wake();
        return core::JobOutcome::done();
    } catch (const chain::ChainError& failure) {
        if (context.stopRequested()) {
            return core::JobOutcome::interrupted();
        }
        if (failure.transient() && job.attempts < m_jobs.maxAttempts()) {
            return core::JobOutcome::transient(QString::fromUtf8(failure.what()));
        }
        std::string reason = failure.what();
        if (failure.transient()) {
            reason += " (gave up after " + std::to_string(job.attempts) + " attempts)";
        }
        recordHeld([&] { failIn(queryId, index, reason); });
        return core::JobOutcome::done({{"failed", reason}});
    } catch (const core::ServiceError& failure) {
        recordHeld([&] { failIn(queryId, index, failure.what()); });
        return core::JobOutcome::done({{"failed", failure.what()}});
    } catch (const std::exception& failure) {
        // A defect here or an answer of a shape nothing checked: the action fails visibly
        // instead of staying IN_PROGRESS behind a failed job.
        const std::string reason = std::string("internal error in ") + name + ": " + failure.what();
        recordHeld([&] { failIn(queryId, index, reason); });
        return core::JobOutcome::done({{"failed", reason}});
    }
}

void ActionExecutor::completeIn(const StoredQuery& query, const StoredAction& action,
                                ActionOutcome& outcome) {
    if (m_queries.actionStatus(query.id, action.index) != "IN_PROGRESS") {
        return; // cancelled while it ran: its results are not kept
    }
    if (outcome.commit) {
        outcome.commit(outcome.results);
    }
    if (m_queries.completeIn(query.id, action, outcome.results) && m_queryEnded) {
        m_queryEnded(query.id, true);
    }
}

void ActionExecutor::failIn(const std::string& queryId, int index, const std::string& reason) {
    if (m_queries.failIn(queryId, index, reason) && m_queryEnded) {
        m_queryEnded(queryId, false);
    }
}

} // namespace proofdesk::request
