// libFuzzer target: what a sandboxed child writes, as the server reads it (issue #43: a child
// that ran submitted code may write anything). Each input is parsed as the bounded JSON reader
// parses result.json, then read as every task's result type (tasks/TaskTypes.h) and as a query's
// stored inputs; a malformed value must be refused with std::invalid_argument, never crash. Its
// `public_input`, if any, is read as the server reads a verified proof's statement
// (stark::readBootloaderStatement and readStatement in each memory mode).

#include "core/BoundedJson.h"
#include "proof/QueryInputs.h"
#include "sandbox/tasks/TaskTypes.h"
#include "stark/Rejection.h"
#include "stark/proof/PublicInput.h"
#include "stark/proof/Statement.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace proofdesk;

namespace {

template <typename T> void readAsIgnoringRefusals(const nlohmann::json& value) {
    try {
        (void)tasks::readAs<T>(value);
    } catch (const std::invalid_argument&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json value = core::parseJsonBounded(text, nullptr);
    if (value.is_discarded()) {
        return 0;
    }
    readAsIgnoringRefusals<tasks::InspectResult>(value);
    readAsIgnoringRefusals<tasks::RunClaims>(value);
    readAsIgnoringRefusals<tasks::ProveResult>(value);
    readAsIgnoringRefusals<tasks::VerifyResult>(value);
    readAsIgnoringRefusals<tasks::Progress>(value);
    readAsIgnoringRefusals<tasks::RunRequest>(value);
    (void)nlohmann::json(value.get<proof::QueryInputs>()).dump();
    if (value.is_object() && value.contains("public_input")) {
        try {
            const stark::PublicInput input = stark::parsePublicInput(value.at("public_input"));
            try {
                (void)stark::readBootloaderStatement(input);
            } catch (const stark::Rejection&) {
            }
            for (const auto mode :
                 {stark::MemoryVerification::Strict, stark::MemoryVerification::Relaxed,
                  stark::MemoryVerification::Cairo1}) {
                try {
                    (void)stark::readStatement(input, mode);
                } catch (const stark::Rejection&) {
                }
            }
        } catch (const stark::Rejection&) {
        }
    }
    return 0;
}
