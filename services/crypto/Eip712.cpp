#include "Eip712.h"

#include "HexDigit.h"

#include "Hex.h"
#include "Keccak.h"

#include <algorithm>
#include <array>
#include <set>

namespace proofdesk::crypto {
namespace {

using Word = std::array<unsigned char, 32>;

[[noreturn]] void fail(const std::string& message) {
    throw TypedDataError(message);
}

// value = value * factor + addend on a 256-bit big-endian word; false on overflow.
bool mulAdd(Word& value, unsigned factor, unsigned addend) {
    unsigned carry = addend;
    for (int i = 31; i >= 0; --i) {
        const unsigned product = value[i] * factor + carry;
        value[i] = static_cast<unsigned char>(product & 0xff);
        carry = product >> 8;
    }
    return carry == 0;
}

// Number of significant bits of a word.
int bitLength(const Word& value) {
    for (int i = 0; i < 32; ++i) {
        if (value[i] != 0) {
            int bits = 8;
            while (!(value[i] & (1u << (bits - 1)))) {
                --bits;
            }
            return (31 - i) * 8 + bits;
        }
    }
    return 0;
}

bool isPowerOfTwoWithBits(const Word& value, int bitIndex) {
    // true if value == 2^bitIndex
    Word expected{};
    expected[31 - bitIndex / 8] = static_cast<unsigned char>(1u << (bitIndex % 8));
    return value == expected;
}

void negate(Word& value) {
    unsigned carry = 1;
    for (int i = 31; i >= 0; --i) {
        const unsigned sum = static_cast<unsigned char>(~value[i]) + carry;
        value[i] = static_cast<unsigned char>(sum & 0xff);
        carry = sum >> 8;
    }
}

QByteArray toBytes(const Word& word) {
    return QByteArray(reinterpret_cast<const char*>(word.data()), 32);
}

QByteArray leftPad32(const QByteArray& bytes) {
    return QByteArray(32 - bytes.size(), '\0') + bytes;
}

struct ParsedType {
    std::string base;      // element type for arrays, else the type itself
    bool isArray = false;  // "T[]" or "T[k]"
    long fixedLength = -1; // k for "T[k]"
};

ParsedType parseArrayType(const std::string& type) {
    ParsedType parsed{type};
    if (!type.empty() && type.back() == ']') {
        const auto open = type.rfind('[');
        if (open == std::string::npos) {
            fail("malformed array type " + type);
        }
        parsed.base = type.substr(0, open);
        parsed.isArray = true;
        const std::string length = type.substr(open + 1, type.size() - open - 2);
        if (!length.empty()) {
            if (!std::all_of(length.begin(), length.end(), ::isdigit) || length.size() > 6) {
                fail("malformed array length in " + type);
            }
            parsed.fixedLength = std::stol(length);
        }
    }
    return parsed;
}

const nlohmann::json& fieldsOf(const nlohmann::json& types, const std::string& typeName) {
    if (!types.is_object() || !types.contains(typeName) || !types[typeName].is_array()) {
        fail("unknown struct type " + typeName);
    }
    return types[typeName];
}

void collectDependencies(const nlohmann::json& types, const std::string& typeName,
                         std::set<std::string>& found) {
    if (found.count(typeName)) {
        return;
    }
    found.insert(typeName);
    for (const auto& field : fieldsOf(types, typeName)) {
        if (!field.is_object() || !field.contains("name") || !field.contains("type") ||
            !field["name"].is_string() || !field["type"].is_string()) {
            fail("a field of " + typeName + " lacks a string name or type");
        }
        const std::string base = parseArrayType(field["type"].get<std::string>()).base;
        if (types.contains(base)) {
            collectDependencies(types, base, found);
        }
    }
}

int integerBits(const std::string& type, const std::string& prefix) {
    const std::string digits = type.substr(prefix.size());
    if (digits.empty()) {
        return 256; // "uint" / "int" alias
    }
    if (!std::all_of(digits.begin(), digits.end(), ::isdigit) || digits.size() > 3) {
        return -1;
    }
    const int bits = std::stoi(digits);
    return (bits >= 8 && bits <= 256 && bits % 8 == 0) ? bits : -1;
}

QByteArray encodeValue(const nlohmann::json& types, const std::string& type,
                       const nlohmann::json& value);

QByteArray encodeAtomic(const std::string& type, const nlohmann::json& value) {
    if (type == "address") {
        if (!value.is_string()) {
            fail("address value must be a string");
        }
        const auto address = parseAddress(QString::fromStdString(value.get<std::string>()));
        if (!address) {
            fail("malformed address " + value.get<std::string>());
        }
        return leftPad32(*address);
    }
    if (type == "bool") {
        if (!value.is_boolean()) {
            fail("bool value must be true or false");
        }
        return leftPad32(QByteArray(1, value.get<bool>() ? '\1' : '\0'));
    }
    if (type.rfind("bytes", 0) == 0 && type.size() > 5) {
        const std::string digits = type.substr(5);
        if (!std::all_of(digits.begin(), digits.end(), ::isdigit) || digits.size() > 2) {
            fail("unknown type " + type);
        }
        const int n = std::stoi(digits);
        if (n < 1 || n > 32 || !value.is_string()) {
            fail("bad " + type + " value");
        }
        const auto bytes = fromHex(QString::fromStdString(value.get<std::string>()));
        if (!bytes || bytes->size() != n) {
            fail(type + " value must be " + std::to_string(n) + " hex bytes");
        }
        return *bytes + QByteArray(32 - n, '\0');
    }
    if (type.rfind("uint", 0) == 0) {
        const int bits = integerBits(type, "uint");
        if (bits < 0) {
            fail("unknown type " + type);
        }
        return encodeIntegerWord(value, bits, false);
    }
    if (type.rfind("int", 0) == 0) {
        const int bits = integerBits(type, "int");
        if (bits < 0) {
            fail("unknown type " + type);
        }
        return encodeIntegerWord(value, bits, true);
    }
    fail("unknown type " + type);
}

QByteArray encodeValue(const nlohmann::json& types, const std::string& type,
                       const nlohmann::json& value) {
    const ParsedType parsed = parseArrayType(type);
    if (parsed.isArray) {
        if (!value.is_array()) {
            fail("value of " + type + " must be an array");
        }
        if (parsed.fixedLength >= 0 && static_cast<long>(value.size()) != parsed.fixedLength) {
            fail("array " + type + " has the wrong length");
        }
        QByteArray concatenated;
        for (const auto& element : value) {
            concatenated += encodeValue(types, parsed.base, element);
        }
        return keccak256(concatenated);
    }
    if (types.contains(type)) {
        return eip712::hashStruct(types, type, value);
    }
    if (type == "string") {
        if (!value.is_string()) {
            fail("string value expected");
        }
        return keccak256(QByteArray::fromStdString(value.get<std::string>()));
    }
    if (type == "bytes") {
        if (!value.is_string()) {
            fail("bytes value must be hex");
        }
        const auto bytes = fromHex(QString::fromStdString(value.get<std::string>()));
        if (!bytes) {
            fail("bytes value must be hex");
        }
        return keccak256(*bytes);
    }
    return encodeAtomic(type, value);
}

nlohmann::json withDomainType(const nlohmann::json& typedData) {
    nlohmann::json types = typedData.at("types");
    if (!types.contains("EIP712Domain")) {
        const nlohmann::json& domain = typedData.at("domain");
        nlohmann::json fields = nlohmann::json::array();
        const std::pair<const char*, const char*> canonical[] = {{"name", "string"},
                                                                 {"version", "string"},
                                                                 {"chainId", "uint256"},
                                                                 {"verifyingContract", "address"},
                                                                 {"salt", "bytes32"}};
        for (const auto& [name, type] : canonical) {
            if (domain.contains(name)) {
                fields.push_back({{"name", name}, {"type", type}});
            }
        }
        types["EIP712Domain"] = fields;
    }
    return types;
}

void requireTypedDataShape(const nlohmann::json& typedData) {
    if (!typedData.is_object() || !typedData.contains("types") || !typedData["types"].is_object() ||
        !typedData.contains("domain") || !typedData["domain"].is_object() ||
        !typedData.contains("primaryType") || !typedData["primaryType"].is_string() ||
        !typedData.contains("message") || !typedData["message"].is_object()) {
        fail("typed data needs types, domain, primaryType and message");
    }
}

} // namespace

QByteArray encodeIntegerWord(const nlohmann::json& value, int bits, bool isSigned) {
    Word word{};
    bool negative = false;
    if (value.is_number_unsigned()) {
        const auto n = value.get<std::uint64_t>();
        for (int i = 0; i < 8; ++i) {
            word[31 - i] = static_cast<unsigned char>((n >> (8 * i)) & 0xff);
        }
    } else if (value.is_number_integer()) {
        const auto n = value.get<std::int64_t>();
        negative = n < 0;
        const std::uint64_t magnitude =
            negative ? static_cast<std::uint64_t>(-(n + 1)) + 1 : static_cast<std::uint64_t>(n);
        for (int i = 0; i < 8; ++i) {
            word[31 - i] = static_cast<unsigned char>((magnitude >> (8 * i)) & 0xff);
        }
    } else if (value.is_string()) {
        std::string text = value.get<std::string>();
        if (!text.empty() && text[0] == '-') {
            negative = true;
            text = text.substr(1);
        }
        if (text.empty()) {
            fail("empty integer");
        }
        if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) {
            const std::string digits = text.substr(2);
            if (digits.empty() || digits.size() > 64) {
                fail("integer out of range");
            }
            for (char c : digits) {
                const int d = hexDigitValue(static_cast<unsigned char>(c));
                if (d < 0 || !mulAdd(word, 16, static_cast<unsigned>(d))) {
                    fail("malformed integer " + value.get<std::string>());
                }
            }
        } else {
            for (char c : text) {
                if (!std::isdigit(static_cast<unsigned char>(c)) ||
                    !mulAdd(word, 10, static_cast<unsigned>(c - '0'))) {
                    fail("malformed or oversized integer " + value.get<std::string>());
                }
            }
        }
    } else {
        fail("integer value must be a number or a string");
    }
    const int length = bitLength(word);
    if (!isSigned) {
        if (negative && length > 0) {
            fail("negative value for an unsigned type");
        }
        if (length > bits) {
            fail("integer does not fit uint" + std::to_string(bits));
        }
        return toBytes(word);
    }
    const bool fits =
        negative ? (length < bits || (length == bits && isPowerOfTwoWithBits(word, bits - 1)))
                 : length < bits;
    if (!fits) {
        fail("integer does not fit int" + std::to_string(bits));
    }
    if (negative) {
        negate(word);
    }
    return toBytes(word);
}

namespace eip712 {

std::string encodeType(const nlohmann::json& types, const std::string& typeName) {
    std::set<std::string> dependencies;
    collectDependencies(types, typeName, dependencies);
    dependencies.erase(typeName);
    std::vector<std::string> ordered{typeName};
    ordered.insert(ordered.end(), dependencies.begin(), dependencies.end());
    std::string out;
    for (const std::string& name : ordered) {
        out.append(name).push_back('(');
        bool first = true;
        for (const auto& field : fieldsOf(types, name)) {
            if (!first) {
                out.push_back(',');
            }
            out.append(field["type"].get<std::string>())
                .append(" ")
                .append(field["name"].get<std::string>());
            first = false;
        }
        out.push_back(')');
    }
    return out;
}

QByteArray typeHash(const nlohmann::json& types, const std::string& typeName) {
    return keccak256(QByteArray::fromStdString(encodeType(types, typeName)));
}

QByteArray hashStruct(const nlohmann::json& types, const std::string& typeName,
                      const nlohmann::json& value) {
    if (!value.is_object()) {
        fail("value of struct " + typeName + " must be an object");
    }
    QByteArray encoded = typeHash(types, typeName);
    for (const auto& field : fieldsOf(types, typeName)) {
        const std::string name = field["name"].get<std::string>();
        if (!value.contains(name) || value[name].is_null()) {
            fail("missing value for " + typeName + "." + name);
        }
        encoded += encodeValue(types, field["type"].get<std::string>(), value[name]);
    }
    return keccak256(encoded);
}

QByteArray domainSeparator(const nlohmann::json& typedData) {
    requireTypedDataShape(typedData);
    return hashStruct(withDomainType(typedData), "EIP712Domain", typedData["domain"]);
}

QByteArray signingDigest(const nlohmann::json& typedData) {
    requireTypedDataShape(typedData);
    const nlohmann::json types = withDomainType(typedData);
    QByteArray message("\x19\x01", 2);
    message += hashStruct(types, "EIP712Domain", typedData["domain"]);
    message += hashStruct(types, typedData["primaryType"].get<std::string>(), typedData["message"]);
    return keccak256(message);
}

} // namespace eip712
} // namespace proofdesk::crypto
