#include "RequestBodies.h"

#include "RequestWire.h"
#include "WireJson.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <sstream>

namespace proofdesk::api {
namespace {

using nlohmann::json;

std::string chainIdMember(const json& body, const char* name) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        throw BodyError("MISSING_FIELD", std::string(name) + " is required");
    }
    if (it->is_number_integer()) {
        return it->dump();
    }
    if (!it->is_string()) {
        throw BodyError("INVALID_TYPE", std::string(name) + " must be a ChainId string");
    }
    return it->get<std::string>();
}

std::optional<std::int64_t> blockMember(const json& body, const char* name, bool required) {
    const auto it = body.find(name);
    if (it == body.end() || it->is_null()) {
        if (required) {
            throw BodyError("MISSING_FIELD", std::string(name) + " is required");
        }
        return std::nullopt;
    }
    if (!it->is_number_integer()) {
        throw BodyError("INVALID_TYPE", std::string(name) + " must be an int64");
    }
    if (it->is_number_unsigned() &&
        it->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
        throw BodyError("INVALID_TYPE", std::string(name) + " must be an int64");
    }
    return it->get<std::int64_t>();
}

} // namespace

json toJson(const GrowOrderCreation& order) {
    return {{"accumulated_chain_id", order.accumulatedChainId},
            {"settle_chain_id", order.settleChainId},
            {"hashing_functions", order.hashingFunctions},
            {"min_batch_size", order.minBatchSize},
            {"start_block_number", detail::orNull(order.startBlockNumber)},
            {"finish_block_number", detail::orNull(order.finishBlockNumber)}};
}

GrowOrderCreation growOrderCreationFromJson(const json& body) {
    static const std::set<std::string> known{"accumulated_chain_id", "settle_chain_id",
                                             "hashing_functions",    "min_batch_size",
                                             "start_block_number",   "finish_block_number"};
    for (const auto& [key, value] : body.items()) {
        if (!known.count(key)) {
            throw BodyError("UNKNOWN_FIELD", key + " is not a field of CreateGrowOrder");
        }
    }
    GrowOrderCreation order;
    order.accumulatedChainId = chainIdMember(body, "accumulated_chain_id");
    order.settleChainId = chainIdMember(body, "settle_chain_id");
    const auto functions = body.find("hashing_functions");
    if (functions == body.end() || !functions->is_array()) {
        throw BodyError("INVALID_TYPE", "hashing_functions must be an array of HashingFunction");
    }
    for (const json& item : *functions) {
        if (!item.is_string()) {
            throw BodyError("INVALID_TYPE", "hashing_functions must be an array of strings");
        }
        order.hashingFunctions.push_back(item.get<std::string>());
    }
    order.minBatchSize = *blockMember(body, "min_batch_size", true);
    order.startBlockNumber = blockMember(body, "start_block_number", false);
    order.finishBlockNumber = blockMember(body, "finish_block_number", false);
    return order;
}

namespace {

using nlohmann::json;

[[noreturn]] void wrongType(const std::string& path, const char* expected) {
    throw BodyError("INVALID_TYPE", path + " must be " + expected);
}

[[noreturn]] void invalid(const char* code, const std::string& detail) {
    throw BodyError(code, detail, BodyError::Status::Unprocessable);
}

bool isNullish(const json* value) {
    return value == nullptr || value->is_null();
}

const json* member(const json& object, const char* name) {
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
}

// "a, b, c": the names a refusal lists.
template <typename Names> std::string joined(const Names& names) {
    std::string list;
    for (const std::string& name : names) {
        list += (list.empty() ? "" : ", ") + name;
    }
    return list;
}

void rejectUnknown(const json& object, const std::set<std::string>& known,
                   const std::string& path) {
    for (const auto& [key, value] : object.items()) {
        if (!known.count(key)) {
            const std::string list = joined(known);
            invalid("UNKNOWN_FIELD", path + "." + key + " is not a field here (" + list + ")");
        }
    }
}

std::string upperSnake(const std::string& camel) {
    std::string out;
    for (std::size_t i = 0; i < camel.size(); ++i) {
        const char c = camel[i];
        if (i > 0 && std::isupper(static_cast<unsigned char>(c))) {
            out.push_back('_');
        }
        out.push_back(char(std::toupper(static_cast<unsigned char>(c))));
    }
    return out;
}

const std::vector<std::string>& headerFieldNames() {
    return request_enums::kBlockHeaderFields;
}

std::vector<std::string> enumList(const json* value, const std::vector<std::string>& allowed,
                                  const std::string& path, const char* code) {
    std::vector<std::string> out;
    if (isNullish(value)) {
        return out;
    }
    if (!value->is_array()) {
        wrongType(path, "an array of strings");
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < value->size(); ++i) {
        const json& item = (*value)[i];
        if (!item.is_string()) {
            wrongType(path + "[" + std::to_string(i) + "]", "a string");
        }
        const auto canonical = canonicalEnum(item.get<std::string>(), allowed);
        if (!canonical) {
            const std::string list = joined(allowed);
            invalid(code, path + "[" + std::to_string(i) + "] \"" + item.get<std::string>() +
                              "\" is not one of " + list);
        }
        if (seen.insert(*canonical).second) {
            out.push_back(*canonical);
        }
    }
    return out;
}

std::string normalizeHex(const std::string& given, std::size_t bytes, const std::string& path,
                         const char* code, bool padLeft) {
    std::string digits = given;
    if (digits.rfind("0x", 0) == 0 || digits.rfind("0X", 0) == 0) {
        digits = digits.substr(2);
    }
    const bool hex = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (!hex || digits.size() > bytes * 2 || (!padLeft && digits.size() != bytes * 2)) {
        invalid(code, path + ": \"" + given + "\" is not " +
                          (padLeft ? "hex of at most " : "hex of exactly ") +
                          std::to_string(bytes) + " bytes");
    }
    std::transform(digits.begin(), digits.end(), digits.begin(),
                   [](char c) { return char(std::tolower(static_cast<unsigned char>(c))); });
    return "0x" + std::string(bytes * 2 - digits.size(), '0') + digits;
}

ProvingRequest parseProving(const std::string& selectorText, const json& givenValue,
                            const std::string& path, const std::string& chainId,
                            const std::string& destination) {
    ProvingRequest proving;
    proving.selector = parseBlockSelector(selectorText, path);
    if (!givenValue.is_null() && !givenValue.is_object()) {
        wrongType(path, "an object (RequestedProving)");
    }
    const json empty = json::object();
    const json& value = givenValue.is_null() ? empty : givenValue;
    rejectUnknown(value, {"accounts", "header", "hashing_functions"}, path);
    proving.header = enumList(member(value, "header"), headerFieldNames(), path + ".header",
                              "INVALID_HEADER_FIELD");
    const bool apeChain = chainKindOf(chainId) == ChainKind::ApeChain;
    if (const json* accounts = member(value, "accounts"); !isNullish(accounts)) {
        if (!accounts->is_object()) {
            wrongType(path + ".accounts", "an object keyed by account address");
        }
        if (accounts->size() > kMaxAccountsPerSelector) {
            invalid("TOO_MANY_ACCOUNTS", path + ".accounts: more than " +
                                             std::to_string(kMaxAccountsPerSelector) +
                                             " accounts in one selector");
        }
        for (const auto& [key, entry] : accounts->items()) {
            const std::string accountPath = path + ".accounts." + key;
            AccountRequest account;
            account.address = normalizeHex(key, 20, accountPath, "INVALID_ACCOUNT", false);
            if (!entry.is_null()) {
                if (!entry.is_object()) {
                    wrongType(accountPath, "an object (AccountProving)");
                }
                rejectUnknown(entry, {"props", "slots"}, accountPath);
                account.props = enumList(member(entry, "props"), accountFieldNames(),
                                         accountPath + ".props", "INVALID_ACCOUNT_FIELD");
                for (const std::string& prop : account.props) {
                    const bool apeField = prop.rfind("Ape", 0) == 0;
                    if (apeField && !apeChain) {
                        invalid("INVALID_ACCOUNT_FIELD",
                                accountPath + ".props: " + prop +
                                    " exists only on ApeChain accounts (33139, 33111)");
                    }
                    if (prop == "Balance" && apeChain) {
                        invalid("UNSUPPORTED_ACCOUNT_FIELD",
                                accountPath +
                                    ".props: Balance on ApeChain is derived from the share price "
                                    "(another contract's storage) and is not proven here; ask "
                                    "for ApeFixed, ApeShares and ApeDebt");
                    }
                }
                if (const json* slotList = member(entry, "slots"); !isNullish(slotList)) {
                    if (!slotList->is_array()) {
                        wrongType(accountPath + ".slots", "an array of hex strings");
                    }
                    if (slotList->size() > kMaxSlotsPerAccount) {
                        invalid("TOO_MANY_SLOTS", accountPath + ".slots: more than " +
                                                      std::to_string(kMaxSlotsPerAccount) +
                                                      " storage slots for one account");
                    }
                    std::set<std::string> seen;
                    for (std::size_t i = 0; i < slotList->size(); ++i) {
                        const json& slot = (*slotList)[i];
                        const std::string slotPath =
                            accountPath + ".slots[" + std::to_string(i) + "]";
                        if (!slot.is_string()) {
                            wrongType(slotPath, "a hex string");
                        }
                        const std::string normalized = normalizeHex(
                            slot.get<std::string>(), 32, slotPath, "INVALID_STORAGE_SLOT", true);
                        if (seen.insert(normalized).second) {
                            account.storageSlots.push_back(normalized);
                        }
                    }
                }
            }
            if (account.props.empty() && account.storageSlots.empty()) {
                account.props = {"Nonce", apeChain ? "ApeShares" : "Balance", "StorageRoot",
                                 "CodeHash"};
            }
            proving.accounts.push_back(std::move(account));
        }
    }
    const json* hashing = member(value, "hashing_functions");
    if (!isNullish(hashing)) {
        if (!hashing->is_array()) {
            wrongType(path + ".hashing_functions", "an array of strings");
        }
        std::set<std::string> seen;
        for (std::size_t i = 0; i < hashing->size(); ++i) {
            const json& item = (*hashing)[i];
            if (!item.is_string()) {
                wrongType(path + ".hashing_functions[" + std::to_string(i) + "]", "a string");
            }
            const auto function = canonicalHashingFunction(item.get<std::string>());
            if (!function) {
                invalid("INVALID_HASHING_FUNCTION",
                        path + ".hashing_functions[" + std::to_string(i) + "] \"" +
                            item.get<std::string>() + "\" is not KECCAK or POSEIDON");
            }
            const std::string& name = *function;
            if (!seen.insert(name).second) {
                invalid("DUPLICATE_HASHING_FUNCTION",
                        path + ".hashing_functions lists " + name + " twice (items are unique)");
            }
            proving.hashingFunctions.push_back(name);
        }
    }
    if (proving.hashingFunctions.empty()) {
        // Set automatically (docs/api.md): the accumulator the destination reads. Starknet
        // verifies Poseidon MMRs cheaply; EVM destinations use Keccak.
        const bool starknet = chainKindOf(destination) == ChainKind::Starknet;
        proving.hashingFunctions = {starknet ? "POSEIDON" : "KECCAK"};
    }
    return proving;
}

std::string requireChainId(const json& value, const std::string& path) {
    if (!value.is_string() && !value.is_number_integer()) {
        wrongType(path, "a ChainId string");
    }
    const std::string id = value.is_string() ? value.get<std::string>() : value.dump();
    if (!chainKindOf(id)) {
        invalid("INVALID_CHAIN_ID", path + ": \"" + id + "\" is not a ChainId (" +
                                        joined(request_enums::kChainIds) + ")");
    }
    return id;
}

FactHashRequest parseFactHash(const json& value, const std::string& path) {
    if (!value.is_object()) {
        wrongType(path, "an object {fact_hash, is_mocked}");
    }
    rejectUnknown(value, {"fact_hash", "is_mocked"}, path);
    const json* bytes = member(value, "fact_hash");
    const json* mocked = member(value, "is_mocked");
    if (!bytes || !mocked) {
        invalid("MISSING_FIELD", path + " needs fact_hash and is_mocked");
    }
    if (!bytes->is_array()) {
        wrongType(path + ".fact_hash", "an array of integers");
    }
    if (!mocked->is_boolean()) {
        wrongType(path + ".is_mocked", "a boolean");
    }
    if (bytes->size() != 32) {
        invalid("INVALID_FACT_HASH", path + ".fact_hash has " + std::to_string(bytes->size()) +
                                         " items; a fact hash is 32 bytes");
    }
    static const char* digits = "0123456789abcdef";
    FactHashRequest fact;
    fact.factHash = "0x";
    for (const json& byte : *bytes) {
        if (!byte.is_number_integer()) {
            wrongType(path + ".fact_hash", "an array of integers");
        }
        const auto v = byte.get<std::int64_t>();
        if (v < 0 || v > 255) {
            invalid("INVALID_FACT_HASH",
                    path + ".fact_hash holds " + std::to_string(v) + "; bytes are 0..255");
        }
        fact.factHash.push_back(digits[v >> 4]);
        fact.factHash.push_back(digits[v & 15]);
    }
    fact.isMocked = mocked->get<bool>();
    return fact;
}

void checkFloatOrMap(const json* value, const std::string& path, double maximum) {
    if (!value) {
        invalid("MISSING_FIELD", path + " is required in settings");
    }
    auto checkNumber = [&](const json& number, const std::string& where) {
        if (!number.is_number()) {
            wrongType(where, "a number");
        }
        if (number.get<double>() < 0) {
            invalid("INVALID_SETTINGS", where + " must not be negative");
        }
        if (!(number.get<double>() <= maximum)) { // also NaN
            std::ostringstream limit;
            limit << maximum;
            invalid("INVALID_SETTINGS", where + " must be at most " + limit.str());
        }
    };
    if (value->is_object()) {
        for (const auto& [key, number] : value->items()) {
            if (!chainKindOf(key)) {
                invalid("INVALID_SETTINGS", path + "." + key + " is not a ChainId");
            }
            checkNumber(number, path + "." + key);
        }
        return;
    }
    checkNumber(*value, path);
}

// settings: max_cost and max_time (a number, or one per chain), optimize (Time or Cost,
// canonical spelling kept).
json parseSettings(const json& settings) {
    if (!settings.is_object()) {
        wrongType("settings", "an object (UserRequestSettings)");
    }
    rejectUnknown(settings, {"max_cost", "max_time", "optimize"}, "settings");
    checkFloatOrMap(member(settings, "max_cost"), "settings.max_cost", kMaxCostSetting);
    checkFloatOrMap(member(settings, "max_time"), "settings.max_time", kMaxTimeSeconds);
    const json* optimize = member(settings, "optimize");
    if (!optimize) {
        invalid("MISSING_FIELD", "settings.optimize is required");
    }
    if (!optimize->is_string()) {
        wrongType("settings.optimize", "a string");
    }
    const auto canonical = canonicalEnum(optimize->get<std::string>(), {"Time", "Cost"});
    if (!canonical) {
        invalid("INVALID_SETTINGS", "settings.optimize must be Time or Cost");
    }
    json normalized = settings;
    normalized["optimize"] = *canonical;
    return normalized;
}

// fee: a non-negative number, or a string holding one.
double parseFee(const json& fee) {
    double value = 0;
    if (fee.is_number()) {
        value = fee.get<double>();
    } else if (fee.is_string()) {
        const std::string text = fee.get<std::string>();
        std::size_t used = 0;
        try {
            value = std::stod(text, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (text.empty() || used != text.size()) {
            invalid("INVALID_FEE", "fee \"" + text + "\" is not a number");
        }
    } else {
        wrongType("fee", "a number or a numeric string");
    }
    if (!(value >= 0)) {
        invalid("INVALID_FEE", "fee must not be negative");
    }
    return value;
}

} // namespace

const std::vector<std::string>& accountFieldNames() {
    return request_enums::kAccountFields;
}

std::optional<std::string> canonicalEnum(const std::string& given,
                                         const std::vector<std::string>& allowed) {
    for (const std::string& name : allowed) {
        if (given == name || given == upperSnake(name)) {
            return name;
        }
    }
    return std::nullopt;
}

UserRequest parseUserRequest(const json& body) {
    if (!body.is_object()) {
        wrongType("the body", "a JSON object (UserRequest)");
    }
    rejectUnknown(body, {"data", "destination_chain_id", "settings", "fee"}, "request");
    UserRequest request;
    const json* destination = member(body, "destination_chain_id");
    if (isNullish(destination)) {
        invalid("MISSING_FIELD", "destination_chain_id is required");
    }
    request.destinationChainId = requireChainId(*destination, "destination_chain_id");

    const json* data = member(body, "data");
    if (isNullish(data)) {
        invalid("MISSING_FIELD", "data is required");
    }
    if (!data->is_object()) {
        wrongType("data", "an object keyed by ChainId");
    }
    if (data->empty()) {
        invalid("MISSING_FIELD", "data names no chain");
    }
    for (const auto& [chainId, entry] : data->items()) {
        const std::string path = "data." + chainId;
        ChainRequest chainRequest;
        chainRequest.chainId = requireChainId(json(chainId), path);
        if (!canBeOrigin(chainId)) {
            invalid("UNSUPPORTED_ORIGIN_CHAIN",
                    path + ": data cannot be proven from " + chainId +
                        " here (no Merkle-Patricia state); it can be a destination");
        }
        if (!entry.is_object()) {
            wrongType(path, "an object (UserRequestChainData)");
        }
        // Two forms (docs/architecture.md): {proving: {selector: ...}, fact_hashes: [...]}, or the
        // selector map itself.
        const bool wrapped = entry.contains("proving") || entry.contains("fact_hashes");
        const json* proving = &entry;
        if (wrapped) {
            rejectUnknown(entry, {"proving", "fact_hashes"}, path);
            proving = member(entry, "proving");
            if (!proving) {
                invalid("MISSING_FIELD", path + ".proving is required");
            }
            if (!proving->is_object()) {
                wrongType(path + ".proving", "an object keyed by selector");
            }
            const json* facts = member(entry, "fact_hashes");
            if (!facts) {
                invalid("MISSING_FIELD", path + ".fact_hashes is required (may be [])");
            }
            if (!facts->is_array()) {
                wrongType(path + ".fact_hashes", "an array of FactHash");
            }
            for (std::size_t i = 0; i < facts->size(); ++i) {
                chainRequest.factHashes.push_back(
                    parseFactHash((*facts)[i], path + ".fact_hashes[" + std::to_string(i) + "]"));
            }
        }
        std::int64_t blocks = 0;
        for (const auto& [selector, value] : proving->items()) {
            chainRequest.provings.push_back(
                parseProving(selector, value, path + (wrapped ? ".proving." : ".") + selector,
                             chainId, request.destinationChainId));
            for (const auto& [start, end] : chainRequest.provings.back().selector.ranges) {
                blocks += end - start + 1;
            }
            if (blocks > kMaxBlocksPerQuery) {
                invalid("TOO_MANY_BLOCKS", path + ": more than " +
                                               std::to_string(kMaxBlocksPerQuery) +
                                               " blocks in one request");
            }
        }
        if (chainRequest.provings.empty() && chainRequest.factHashes.empty()) {
            invalid("MISSING_FIELD", path + " requests nothing (no selector, no fact hash)");
        }
        request.chains.push_back(std::move(chainRequest));
    }

    if (const json* settings = member(body, "settings"); !isNullish(settings)) {
        request.settings = parseSettings(*settings);
    }
    if (const json* fee = member(body, "fee"); !isNullish(fee)) {
        request.fee = parseFee(*fee);
    }
    return request;
}

json canonicalJson(const UserRequest& request) {
    json data = json::object();
    for (const ChainRequest& chainRequest : request.chains) {
        json proving = json::object();
        for (const ProvingRequest& item : chainRequest.provings) {
            json accounts = json::object();
            for (const AccountRequest& account : item.accounts) {
                accounts[account.address] = {{"props", account.props},
                                             {"slots", account.storageSlots}};
            }
            proving[item.selector.text] = {{"accounts", accounts},
                                           {"header", item.header},
                                           {"hashing_functions", item.hashingFunctions}};
        }
        json facts = json::array();
        for (const FactHashRequest& fact : chainRequest.factHashes) {
            facts.push_back({{"fact_hash", fact.factHash}, {"is_mocked", fact.isMocked}});
        }
        data[chainRequest.chainId] = {{"proving", proving}, {"fact_hashes", facts}};
    }
    json out{{"data", data}, {"destination_chain_id", request.destinationChainId}};
    out["settings"] = request.settings ? *request.settings : json(nullptr);
    out["fee"] = request.fee ? json(*request.fee) : json(nullptr);
    return out;
}

std::optional<double> maxTimeFor(const UserRequest& request, const std::string& chainId) {
    if (!request.settings) {
        return std::nullopt;
    }
    const json& maxTime = (*request.settings)["max_time"];
    if (maxTime.is_number()) {
        return maxTime.get<double>();
    }
    if (maxTime.is_object() && maxTime.contains(chainId)) {
        return maxTime[chainId].get<double>();
    }
    return std::nullopt;
}

} // namespace proofdesk::api
