#include "cairo/vm/ExactJson.h"

#include "core/BoundedJson.h"

namespace proofdesk::cairo {

nlohmann::json parseExactJson(const std::string& text) {
    return parseJsonBounded(text, nullptr, JsonLimits{kMaxJsonDepth, true});
}

} // namespace proofdesk::cairo
