#include "BlockHeader.h"

#include "ChainError.h"
#include "Rlp.h"
#include "api/RequestWire.h"
#include "crypto/Hex.h"
#include "crypto/HexDigit.h"
#include "crypto/Keccak.h"

#include <array>
#include <string>

namespace proofdesk::chain {
namespace {

enum class Kind { Fixed, Uint, Bytes };

struct FieldSpec {
    const char* json;
    Kind kind;
    int size; // for Fixed
};

// go-ethereum core/types/block.go Header, in RLP order.
constexpr std::array<FieldSpec, 15> kFrontier{{
    {"parentHash", Kind::Fixed, 32},
    {"sha3Uncles", Kind::Fixed, 32},
    {"miner", Kind::Fixed, 20},
    {"stateRoot", Kind::Fixed, 32},
    {"transactionsRoot", Kind::Fixed, 32},
    {"receiptsRoot", Kind::Fixed, 32},
    {"logsBloom", Kind::Fixed, 256},
    {"difficulty", Kind::Uint, 0},
    {"number", Kind::Uint, 0},
    {"gasLimit", Kind::Uint, 0},
    {"gasUsed", Kind::Uint, 0},
    {"timestamp", Kind::Uint, 0},
    {"extraData", Kind::Bytes, 0},
    {"mixHash", Kind::Fixed, 32},
    {"nonce", Kind::Fixed, 8},
}};

// The fork additions, in order: London, Shanghai, Cancun (3), Prague. Data-driven so a later
// fork's field is one more line.
constexpr std::array<FieldSpec, 6> kOptional{{
    {"baseFeePerGas", Kind::Uint, 0},
    {"withdrawalsRoot", Kind::Fixed, 32},
    {"blobGasUsed", Kind::Uint, 0},
    {"excessBlobGas", Kind::Uint, 0},
    {"parentBeaconBlockRoot", Kind::Fixed, 32},
    {"requestsHash", Kind::Fixed, 32},
}};

QByteArray decodeField(const nlohmann::json& block, const FieldSpec& spec) {
    const auto it = block.find(spec.json);
    if (it == block.end() || !it->is_string()) {
        throw ChainError(std::string("block header: ") + spec.json + " is missing or not a string");
    }
    const std::string& text = it->get_ref<const std::string&>();
    if (spec.kind == Kind::Uint) {
        // Quantities may have an odd number of digits ("0x1").
        if (text.size() < 3 || text.compare(0, 2, "0x") != 0) {
            throw ChainError(std::string("block header: ") + spec.json + " is not a quantity");
        }
        std::string digits = text.substr(2);
        if (digits.size() % 2 != 0) {
            digits.insert(digits.begin(), '0');
        }
        auto bytes = crypto::fromHex(QString::fromStdString(digits));
        if (!bytes) {
            throw ChainError(std::string("block header: ") + spec.json + " is not hex");
        }
        return stripLeadingZeros(*bytes);
    }
    auto bytes = crypto::fromHex(QString::fromStdString(text));
    if (!bytes) {
        throw ChainError(std::string("block header: ") + spec.json + " is not hex");
    }
    if (spec.kind == Kind::Fixed && bytes->size() != spec.size) {
        throw ChainError(std::string("block header: ") + spec.json + " has " +
                         std::to_string(bytes->size()) + " bytes, expected " +
                         std::to_string(spec.size));
    }
    return *bytes;
}

std::uint64_t toUint64(const QByteArray& minimal, const char* what) {
    if (minimal.size() > 8) {
        throw ChainError(std::string("block header: ") + what + " does not fit in 64 bits");
    }
    std::uint64_t value = 0;
    for (char byte : minimal) {
        value = (value << 8) | static_cast<unsigned char>(byte);
    }
    return value;
}

void finish(BlockHeader& header) {
    QByteArray payload;
    payload.reserve(640);
    for (const QByteArray& field : header.fields) {
        rlpAppendBytes(payload, field);
    }
    header.rlp = rlpEncodeList(payload);
    header.hash = crypto::keccak256(header.rlp);
    header.number = toUint64(header.fields[8], "number");
    header.timestamp = toUint64(header.fields[11], "timestamp");
}

} // namespace

BlockHeader headerFromRpc(const nlohmann::json& block) {
    if (!block.is_object()) {
        throw ChainError("block header: the block is not a JSON object");
    }
    BlockHeader header;
    header.fields.reserve(kFrontier.size() + kOptional.size());
    for (const FieldSpec& spec : kFrontier) {
        header.fields.push_back(decodeField(block, spec));
    }
    bool gap = false;
    for (const FieldSpec& spec : kOptional) {
        const auto it = block.find(spec.json);
        const bool present = it != block.end() && !it->is_null();
        if (!present) {
            gap = true;
            continue;
        }
        if (gap) {
            throw ChainError(std::string("block header: ") + spec.json +
                             " is present but an earlier fork field is missing");
        }
        header.fields.push_back(decodeField(block, spec));
    }
    finish(header);
    if (const auto it = block.find("hash"); it != block.end() && it->is_string()) {
        auto claimed = crypto::fromHex(QString::fromStdString(it->get<std::string>()));
        if (!claimed || claimed->size() != 32) {
            throw ChainError("block header: hash is not 32 bytes of hex");
        }
        header.claimedHash = *claimed;
    }
    return header;
}

BlockHeader headerFromRlp(const QByteArray& rlp) {
    const RlpItem item = rlpDecode(rlp);
    if (!item.isList || item.items.size() < kFrontier.size()) {
        throw ChainError("block header: the RLP is not a list of at least 15 fields");
    }
    BlockHeader header;
    for (const RlpItem& field : item.items) {
        if (field.isList) {
            throw ChainError("block header: a field is a list");
        }
        header.fields.push_back(field.bytes);
    }
    finish(header);
    return header;
}

const std::vector<QString>& blockHeaderFieldNames() {
    static const std::vector<QString> names = [] {
        std::vector<QString> list;
        for (const std::string& name : api::request_enums::kBlockHeaderFields) {
            list.push_back(QString::fromStdString(name));
        }
        return list;
    }();
    return names;
}

std::optional<QString> headerFieldValue(const BlockHeader& header, const QString& field) {
    const auto& names = blockHeaderFieldNames();
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == field) {
            if (kFrontier[i].kind == Kind::Uint) {
                return quantityHex(header.fields[i]);
            }
            return crypto::toHex0x(header.fields[i]);
        }
    }
    return std::nullopt;
}

std::vector<std::uint64_t> littleEndianWords(const QByteArray& bytes) {
    std::vector<std::uint64_t> words;
    words.reserve(std::size_t(bytes.size() + 7) / 8);
    for (qsizetype at = 0; at < bytes.size(); at += 8) {
        std::uint64_t word = 0;
        const qsizetype end = std::min(at + 8, bytes.size());
        for (qsizetype i = end - 1; i >= at; --i) {
            word = (word << 8) | static_cast<unsigned char>(bytes[i]);
        }
        words.push_back(word);
    }
    return words;
}

std::uint64_t parseQuantity(const nlohmann::json& value, const char* what) {
    if (!value.is_string()) {
        throw ChainError(std::string(what) + " is not a hex quantity string");
    }
    const std::string& text = value.get_ref<const std::string&>();
    if (text.size() < 3 || text.size() > 18 || text.compare(0, 2, "0x") != 0) {
        throw ChainError(std::string(what) + " is not a 64-bit hex quantity: " + text);
    }
    std::uint64_t result = 0;
    for (std::size_t i = 2; i < text.size(); ++i) {
        const int digit = crypto::hexDigitValue(static_cast<unsigned char>(text[i]));
        if (digit < 0) {
            throw ChainError(std::string(what) + " is not hex: " + text);
        }
        result = (result << 4) | std::uint64_t(digit);
    }
    return result;
}

QString quantityHex(const QByteArray& minimalBigEndian) {
    const QByteArray stripped = stripLeadingZeros(minimalBigEndian);
    if (stripped.isEmpty()) {
        return QStringLiteral("0x0");
    }
    QString hex = QString::fromLatin1(stripped.toHex());
    if (hex.startsWith(QLatin1Char('0'))) {
        hex.remove(0, 1);
    }
    return QStringLiteral("0x") + hex;
}

} // namespace proofdesk::chain
