#include "ExactJson.h"

namespace proofdesk::cairo {
namespace {

using Json = nlohmann::json;

// A SAX handler that builds the DOM through nlohmann's own builder and intercepts numbers the
// lexer classified as floats: those written as plain integers become exact strings.
class ExactSax {
public:
    explicit ExactSax(Json& root) : m_builder(root, false) {}

    bool null() { return m_builder.null(); }
    bool boolean(bool value) { return m_builder.boolean(value); }
    bool number_integer(Json::number_integer_t value) { return m_builder.number_integer(value); }
    bool number_unsigned(Json::number_unsigned_t value) { return m_builder.number_unsigned(value); }
    bool number_float(Json::number_float_t value, const Json::string_t& text) {
        if (text.find_first_of(".eE") == std::string::npos) {
            Json::string_t exact = text;
            return m_builder.string(exact);
        }
        return m_builder.number_float(value, text);
    }
    bool string(Json::string_t& value) { return m_builder.string(value); }
    bool binary(Json::binary_t& value) { return m_builder.binary(value); }
    bool start_object(std::size_t size) { return m_builder.start_object(size); }
    bool key(Json::string_t& value) { return m_builder.key(value); }
    bool end_object() { return m_builder.end_object(); }
    bool start_array(std::size_t size) { return m_builder.start_array(size); }
    bool end_array() { return m_builder.end_array(); }
    bool parse_error(std::size_t position, const std::string& token,
                     const nlohmann::detail::exception& error) {
        failed = true;
        return m_builder.parse_error(position, token, error);
    }

    bool failed = false;

private:
    nlohmann::detail::json_sax_dom_parser<Json> m_builder;
};

} // namespace

nlohmann::json parseExactJson(const std::string& text) {
    Json root;
    ExactSax sax(root);
    bool ok = false;
    try {
        ok = Json::sax_parse(text, &sax);
    } catch (const Json::exception&) {
        ok = false;
    }
    if (!ok || sax.failed) {
        return Json(Json::value_t::discarded);
    }
    return root;
}

} // namespace proofdesk::cairo
