#pragma once

// The typed request of a submitting route, read from its multipart parts: every option parsed
// to its type here, each refused with a 400 and its named code; the proof service then checks
// only what needs the service (ProofIntake::submit).

#include "ProofRouteSupport.h"
#include "proof/CoreQueryRequest.h"

#include <optional>
#include <string>

namespace proofdesk::routes {

// POST /core-query.
proof::CoreQueryRequest coreQueryRequestOf(const Parts& parts);

inline bool absentOrEmpty(const std::optional<std::string>& value) {
    return !value || value->empty();
}

// `value` spelled as one of E's enumerators, absent when absent or empty, else 400 `code`.
template <typename E>
std::optional<E> optionalEnumPart(const std::optional<std::string>& value, const char* code) {
    if (absentOrEmpty(value)) {
        return std::nullopt;
    }
    if (const std::optional<E> named = api::enumNamed<E>(*value)) {
        return named;
    }
    std::string list;
    for (const std::string& option : api::spellingsOf<E>()) {
        list += (list.empty() ? "" : ", ") + option;
    }
    badRequest(code, "\"" + *value + "\" is not one of " + list);
}
// The same, `fallback` when absent or empty.
template <typename E>
E enumPart(const std::optional<std::string>& value, E fallback, const char* code) {
    return optionalEnumPart<E>(value, code).value_or(fallback);
}

// layout: a layout's name as given, "auto" when absent or empty (the service checks the name).
std::string layoutOf(const Parts& parts);

// optimize (our extension, issue #48): "time" or "size", absent when absent or empty, else 400
// INVALID_OPTIMIZE.
std::optional<std::string> optimizeOf(const Parts& parts);

// mockFactHash: "true" or "false" (absent or empty: false), else 400 INVALID_MOCK_FACT_HASH.
bool mockFactHashOf(const std::optional<std::string>& value);

// The one source of a submission: a program file or a program hash (either with an input), a
// PIE, or a proof. 400 when none, or more than one, or an input without a program.
proof::QuerySource sourceOf(std::optional<proof::UploadedFile> programFile,
                            const std::optional<std::string>& programHash,
                            std::optional<proof::UploadedFile> inputFile,
                            std::optional<proof::UploadedFile> pieFile,
                            std::optional<proof::UploadedFile> proofFile);

} // namespace proofdesk::routes
