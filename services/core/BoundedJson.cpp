#include "BoundedJson.h"

#include <sys/stat.h>

#include <fstream>

namespace proofdesk::core {
namespace {

using Json = nlohmann::json;

// nlohmann's own DOM builder behind a depth count: the parser itself is iterative, and stopping
// here keeps every later recursive walk of the value within kMaxJsonDepth levels.
class BoundedSax {
public:
    BoundedSax(Json& root, JsonLimits limits) : m_builder(root, false), m_limits(limits) {}

    bool null() { return m_builder.null(); }
    bool boolean(bool value) { return m_builder.boolean(value); }
    bool number_integer(Json::number_integer_t value) { return m_builder.number_integer(value); }
    bool number_unsigned(Json::number_unsigned_t value) { return m_builder.number_unsigned(value); }
    bool number_float(Json::number_float_t value, const Json::string_t& text) {
        if (m_limits.exactIntegers && text.find_first_of(".eE") == std::string::npos) {
            Json::string_t exact = text;
            return m_builder.string(exact);
        }
        return m_builder.number_float(value, text);
    }
    bool string(Json::string_t& value) { return m_builder.string(value); }
    bool binary(Json::binary_t& value) { return m_builder.binary(value); }
    bool start_object(std::size_t size) { return enter() && m_builder.start_object(size); }
    bool key(Json::string_t& value) { return m_builder.key(value); }
    bool end_object() {
        --m_depth;
        return m_builder.end_object();
    }
    bool start_array(std::size_t size) { return enter() && m_builder.start_array(size); }
    bool end_array() {
        --m_depth;
        return m_builder.end_array();
    }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) {
        error = "not valid JSON (at byte " + std::to_string(position) + ")";
        return false;
    }

    std::string error;

private:
    bool enter() {
        if (++m_depth > m_limits.maxDepth) {
            error = "nested deeper than " + std::to_string(m_limits.maxDepth) + " levels";
            return false;
        }
        return true;
    }

    nlohmann::detail::json_sax_dom_parser<Json> m_builder;
    JsonLimits m_limits;
    int m_depth = 0;
};

} // namespace

nlohmann::json parseJsonBounded(std::string_view text, std::string* error, JsonLimits limits) {
    Json root;
    BoundedSax sax(root, limits);
    bool ok = false;
    try {
        ok = Json::sax_parse(text.begin(), text.end(), &sax);
    } catch (const Json::exception&) {
        ok = false;
    }
    if (!ok || !sax.error.empty()) {
        if (error) {
            *error = sax.error.empty() ? std::string("not valid JSON") : sax.error;
        }
        return Json(Json::value_t::discarded);
    }
    return root;
}

bool readFileBounded(const std::string& path, std::uint64_t maxBytes, std::string* out) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode) ||
        static_cast<std::uint64_t>(info.st_size) > maxBytes) {
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return false;
    }
    out->assign(static_cast<std::size_t>(info.st_size), '\0');
    in.read(out->data(), info.st_size);
    return static_cast<std::uint64_t>(in.gcount()) == static_cast<std::uint64_t>(info.st_size);
}

std::string truncatedDump(const nlohmann::json& value, std::size_t maxChars) {
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > maxChars) {
        text.resize(maxChars);
        text += "...";
    }
    return text;
}

} // namespace proofdesk::core
