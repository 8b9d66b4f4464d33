#pragma once

#include "core/Store.h"

#include <QString>

#include <optional>
#include <string>

namespace proofdesk::proof {

// A project's proof-service credits (table proof_credits): each submission costs one; a project
// without a balance is unlimited (the default). `proofdesk credits` sets them, the proof service
// charges them, GET /credits reads them.
class ProjectCredits {
public:
    // Applies the proof service's migrations (the table is theirs).
    explicit ProjectCredits(core::Store& store);

    // nullopt: unlimited.
    std::optional<qint64> balance(const QString& projectId);
    void setBalance(const QString& projectId, std::optional<qint64> balance);
    // Inside one of the store's write transactions: takes one credit, or throws 402
    // INSUFFICIENT_CREDITS with an x402 payment requirement for `resourceUrl`.
    void chargeOneIn(const QString& projectId, const std::string& resourceUrl);

private:
    core::Store& m_store;
};

} // namespace proofdesk::proof
