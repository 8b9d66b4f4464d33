#pragma once

#include <string>
#include <vector>

namespace proofdesk::stark::air {

// The layout descriptions of layouts/, compiled into the library.
struct LayoutSource {
    std::string name;
    std::string text;
};

const std::vector<LayoutSource>& layoutSources();

} // namespace proofdesk::stark::air
