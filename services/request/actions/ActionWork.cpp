#include "ActionWork.h"

#include "chain/ChainError.h"
#include "chain/Rlp.h"
#include "crypto/Hex.h"

namespace proofdesk::request {

ResolvedBlocks ActionRun::resolvedBlocks() const {
    for (const StoredAction& candidate : actions) {
        if (candidate.method.value("name", std::string()) ==
            actionName(ActionKind::ResolveBlocks)) {
            return ResolvedBlocks::fromResults(candidate.method.at("results"));
        }
    }
    throw chain::ChainError("query " + query.id + " has no resolve_blocks action");
}

std::string hexNumber(std::int64_t number) {
    return chain::quantityHex(chain::minimalBigEndian(std::uint64_t(number))).toStdString();
}

std::string hex0x(const QByteArray& bytes) {
    return crypto::toHex0x(bytes).toStdString();
}

} // namespace proofdesk::request
