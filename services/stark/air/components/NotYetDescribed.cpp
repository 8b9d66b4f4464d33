#include "air/AirBuilder.h"

#include <stdexcept>

namespace proofdesk::stark::air {
namespace {
[[noreturn]] void missing(const AirBuilder& b, const std::string& builtin) {
    throw std::runtime_error("layout " + b.layout().name + ": the " + builtin +
                             " builtin's constraints are not described yet");
}
} // namespace

void addRangeCheck96(AirBuilder& b) {
    missing(b, "range_check96");
}
void addModBuiltin(AirBuilder& b, const std::string& name) {
    missing(b, name);
}

} // namespace proofdesk::stark::air
