#include "cairo/vm/References.h"

#include <cctype>

namespace proofdesk::cairo {
namespace {

std::string trim(const std::string& text) {
    const auto begin = text.find_first_not_of(" \t\n");
    const auto end = text.find_last_not_of(" \t\n");
    return begin == std::string::npos ? std::string() : text.substr(begin, end - begin + 1);
}

// An intermediate result: a value plus, for dereferences, where it came from.
struct Term {
    std::optional<Value> value;
    std::optional<Relocatable> cell;
    std::string type = "felt";
};

class Parser {
public:
    Parser(const std::string& text, const RegisterState& registers, const Memory& memory)
        : m_text(text), m_registers(registers), m_memory(memory) {}

    Term parse() {
        Term term = sum();
        skipSpaces();
        if (m_pos != m_text.size()) {
            fail("unexpected text");
        }
        return term;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        const std::string shown = m_text.size() > 200 ? m_text.substr(0, 200) + "..." : m_text;
        throw VmError("cannot evaluate reference \"" + shown + "\": " + why + " at " +
                      std::to_string(m_pos));
    }
    // Bounds the recursion of nested brackets, casts and signs (a program's references are its
    // submitter's text).
    class Nested {
    public:
        explicit Nested(Parser& parser) : m_parser(parser) {
            if (++m_parser.m_depth > kMaxNesting) {
                m_parser.fail("nested deeper than " + std::to_string(kMaxNesting) + " levels");
            }
        }
        ~Nested() { --m_parser.m_depth; }
        Nested(const Nested&) = delete;
        Nested& operator=(const Nested&) = delete;

    private:
        Parser& m_parser;
    };
    static constexpr int kMaxNesting = 128;
    int m_depth = 0;
    void skipSpaces() {
        while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) {
            ++m_pos;
        }
    }
    bool accept(const std::string& token) {
        skipSpaces();
        if (m_text.compare(m_pos, token.size(), token) == 0) {
            m_pos += token.size();
            return true;
        }
        return false;
    }
    void expect(const std::string& token) {
        if (!accept(token)) {
            fail("expected '" + token + "'");
        }
    }
    static Value valueOf(const Term& term, const std::string& context) {
        if (!term.value) {
            throw VmError("reference operand " + context + " is an unknown memory cell");
        }
        return *term.value;
    }

    Term sum() {
        Term left = unary();
        for (;;) {
            if (accept("+")) {
                const Term right = unary();
                Term out;
                out.value = valueOf(left, "left") + valueOf(right, "right");
                out.type = left.type;
                left = out;
            } else if (accept("-")) {
                const Term right = unary();
                Term out;
                out.value = valueOf(left, "left") - valueOf(right, "right");
                out.type = left.type;
                left = out;
            } else {
                return left;
            }
        }
    }

    Term unary() {
        const Nested nested(*this);
        if (accept("-")) {
            const Term inner = unary();
            Term out;
            out.value = Value(-valueOf(inner, "negated").felt());
            return out;
        }
        return primary();
    }

    std::string typeText() {
        // A type runs to the ')' that closes the cast, across nested parentheses.
        skipSpaces();
        int depth = 0;
        const std::size_t start = m_pos;
        while (m_pos < m_text.size()) {
            const char c = m_text[m_pos];
            if (c == '(') {
                ++depth;
            } else if (c == ')') {
                if (depth == 0) {
                    break;
                }
                --depth;
            }
            ++m_pos;
        }
        return trim(m_text.substr(start, m_pos - start));
    }

    Term primary() {
        skipSpaces();
        if (accept("cast(")) {
            Term inner = sum();
            expect(",");
            inner.type = typeText();
            expect(")");
            return inner;
        }
        if (accept("[")) {
            const Term address = sum();
            expect("]");
            Term out;
            out.cell = valueOf(address, "dereferenced").address();
            Value value;
            if (m_memory.tryGet(*out.cell, &value)) {
                out.value = value;
            }
            // Dereferencing T* gives T.
            out.type = address.type;
            if (!out.type.empty() && out.type.back() == '*') {
                out.type.pop_back();
            }
            return out;
        }
        if (accept("(")) {
            Term inner = sum();
            expect(")");
            return inner;
        }
        if (accept("ap")) {
            Term out;
            out.value = Value(m_registers.ap);
            return out;
        }
        if (accept("fp")) {
            Term out;
            out.value = Value(m_registers.fp);
            return out;
        }
        const std::size_t start = m_pos;
        while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
            ++m_pos;
        }
        if (m_pos == start) {
            fail("unexpected token");
        }
        Term out;
        out.value = Value(*Felt::parse(m_text.substr(start, m_pos - start)));
        return out;
    }

    const std::string& m_text;
    const RegisterState& m_registers;
    const Memory& m_memory;
    std::size_t m_pos = 0;
};

std::string stripPointer(std::string type) {
    while (!type.empty() && type.back() == '*') {
        type.pop_back();
    }
    return type;
}

} // namespace

ResolvedReference evaluateReference(const std::string& expression, const RegisterState& registers,
                                    const Memory& memory) {
    Parser parser(expression, registers, memory);
    const Term term = parser.parse();
    return {term.cell, term.value, term.type};
}

std::optional<StructMember> structMember(const Program& program, const std::string& structType,
                                         const std::string& member) {
    const auto* def = program.identifier(stripPointer(structType));
    if (!def || def->value("type", std::string()) != "struct" || !def->contains("members")) {
        return std::nullopt;
    }
    const auto& members = (*def)["members"];
    if (!members.contains(member)) {
        return std::nullopt;
    }
    return StructMember{members[member].value("offset", std::int64_t{0}),
                        members[member].value("cairo_type", std::string("felt"))};
}

std::optional<std::int64_t> structSize(const Program& program, const std::string& structType) {
    const auto* def = program.identifier(stripPointer(structType));
    if (!def || def->value("type", std::string()) != "struct") {
        return std::nullopt;
    }
    return def->value("size", std::int64_t{0});
}

} // namespace proofdesk::cairo
