#include "cairo/outputs/FactHashes.h"

#include "crypto/Hex.h"
#include "crypto/Keccak.h"
#include "crypto/Poseidon.h"

#include <QByteArray>

namespace proofdesk::cairo {
namespace {} // namespace

std::string sharpFactHash(const Felt& programHash, const std::vector<Felt>& output) {
    QByteArray words;
    words.reserve(static_cast<qsizetype>(output.size() * 32));
    for (const Felt& word : output) {
        words += crypto::toBytes32(word);
    }
    QByteArray preimage = crypto::toBytes32(programHash);
    preimage.append(crypto::keccak256(words));
    const QByteArray fact = crypto::keccak256(preimage);
    return "0x" + fact.toHex().toStdString();
}

const Felt& sharpBootloaderProgramHash() {
    static const Felt value =
        *Felt::parse("0x5ab580b04e3532b6b18f81cfa654a05e29dd8e2352d88df1e765a84072db07");
    return value;
}

Felt integrityFactHash(const Felt& programHash, const std::vector<Felt>& output) {
    std::vector<Felt> inner = {Felt::one(), Felt::fromU64(output.size() + 2), programHash};
    inner.insert(inner.end(), output.begin(), output.end());
    return crypto::poseidonHashMany(
        {sharpBootloaderProgramHash(), crypto::poseidonHashMany(inner)});
}

} // namespace proofdesk::cairo
