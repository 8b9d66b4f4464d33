// libFuzzer target: RLP decoding and block headers from RLP. Any input either throws ChainError
// or decodes to an item whose re-encoding is the input itself (canonical RLP has exactly one
// encoding); a header decoded from RLP re-encodes to the same bytes. Anything else aborts.

#include "chain/BlockHeader.h"
#include "chain/ChainError.h"
#include "chain/Rlp.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace proofdesk::chain;

namespace {

QByteArray encode(const RlpItem& item) {
    if (!item.isList) {
        return rlpEncodeBytes(item.bytes);
    }
    QByteArray payload;
    for (const RlpItem& child : item.items) {
        payload += encode(child);
    }
    return rlpEncodeList(payload);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    try {
        const RlpItem item = rlpDecode(input);
        if (encode(item) != input || item.encoded != input) {
            std::abort();
        }
    } catch (const ChainError&) {
        return 0;
    }
    try {
        const BlockHeader header = headerFromRlp(input);
        if (header.rlp != input) {
            std::abort();
        }
    } catch (const ChainError&) {
    }
    return 0;
}
