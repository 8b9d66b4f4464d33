#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>

#include <stdexcept>
#include <string>

namespace proofdesk::crypto {

class TypedDataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// EIP-712 hashing of typed structured data given as the JSON object wallets sign
// ({types, primaryType, domain, message}). Supports atomic types (address, bool, bytes1..32,
// uint8..256, int8..256), dynamic types (string, bytes), structs and arrays (T[] and T[k]).
// When `types` has no EIP712Domain entry it is derived from the domain's fields, as ethers does.
// Throws TypedDataError on anything malformed.
namespace eip712 {

// "Mail(Person from,Person to,string contents)Person(string name,address wallet)"
std::string encodeType(const nlohmann::json& types, const std::string& typeName);
QByteArray typeHash(const nlohmann::json& types, const std::string& typeName);
QByteArray hashStruct(const nlohmann::json& types, const std::string& typeName,
                      const nlohmann::json& value);
QByteArray domainSeparator(const nlohmann::json& typedData);
// keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(primaryType, message))
QByteArray signingDigest(const nlohmann::json& typedData);

} // namespace eip712

// Encodes an integer given as a JSON number or a decimal / 0x-hex string (optionally negative)
// as a 32-byte big-endian two's-complement word, checking it fits `bits` (signed or not).
QByteArray encodeIntegerWord(const nlohmann::json& value, int bits, bool isSigned);

} // namespace proofdesk::crypto
