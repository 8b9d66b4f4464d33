#include "cairo/vm/ExactJson.h"

#include "core/BoundedJson.h"

namespace proofdesk::cairo {

nlohmann::json parseExactJson(const std::string& text) {
    return core::parseJsonBounded(text, nullptr, core::JsonLimits{core::kMaxJsonDepth, true});
}

} // namespace proofdesk::cairo
