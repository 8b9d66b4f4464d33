#pragma once

#include "cairo/vm/Memory.h"
#include "cairo/vm/Program.h"

#include <optional>
#include <string>

namespace proofdesk::cairo {

// What an `ids.name` denotes: a value, or (for `[…]` references) the cell it lives in, with the
// Cairo type so that struct members can be found.
struct ResolvedReference {
    std::optional<Relocatable> cell; // set for `[expr]` references: where the value is
    std::optional<Value> value;      // the value, when it could be read or computed
    std::string type;                // e.g. "felt", "felt*", "__main__.MyStruct"
};

struct RegisterState {
    Relocatable ap;
    Relocatable fp;
};

// Evaluates a reference expression of the reference manager (cast, dereference, + and -,
// registers, integer literals) against registers and memory.
ResolvedReference evaluateReference(const std::string& expression, const RegisterState& registers,
                                    const Memory& memory);

// Struct layout lookups through the program's identifiers.
struct StructMember {
    std::int64_t offset = 0;
    std::string type;
};
std::optional<StructMember> structMember(const Program& program, const std::string& structType,
                                         const std::string& member);
std::optional<std::int64_t> structSize(const Program& program, const std::string& structType);

} // namespace proofdesk::cairo
