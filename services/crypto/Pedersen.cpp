#include "Pedersen.h"

#include "MontField.h"

#include "StarkCurve.h"

#include <array>
#include <stdexcept>

// The five Pedersen points (shift point P_0 and the four base points P_1..P_4) are public facts,
// taken from the npm package @scure/starknet 1.1.2 (lib/index.js, PEDERSEN_POINTS), which lists
// them as cairo-lang's pedersen_params.json CONSTANT_POINTS[0], [2], [2+248], [2+252],
// [2+252+248].

namespace proofdesk::crypto {
namespace {

using stark::Affine;
using stark::Jacobian;
using Limbs = Felt::Limbs;

Affine point(const char* x, const char* y) {
    return Affine::fromFelts(*Felt::parse(x), *Felt::parse(y));
}

// table[w][k-1] = k·2^(8w)·P for k in 1..255, in affine coordinates.
struct FixedBaseTable {
    int windows = 0;
    std::vector<std::array<Affine, 255>> entries;
};

void batchNormalize(const std::vector<Jacobian>& in, Affine* out) {
    // Montgomery's trick: one inversion for the whole batch.
    const std::size_t n = in.size();
    std::vector<Limbs> prefix(n);
    Limbs running = mont::one();
    for (std::size_t i = 0; i < n; ++i) {
        prefix[i] = running;
        running = mont::mul(running, in[i].z);
    }
    Limbs inverse = mont::inverse(running);
    for (std::size_t i = n; i-- > 0;) {
        const Limbs zInv = mont::mul(inverse, prefix[i]);
        inverse = mont::mul(inverse, in[i].z);
        const Limbs zInv2 = mont::square(zInv);
        out[i] = {mont::mul(in[i].x, zInv2), mont::mul(in[i].y, mont::mul(zInv2, zInv)), false};
    }
}

FixedBaseTable buildTable(const Affine& base, int bits) {
    FixedBaseTable table;
    table.windows = (bits + 7) / 8;
    table.entries.resize(static_cast<std::size_t>(table.windows));
    Affine windowBase = base;
    std::vector<Jacobian> multiples(256);
    for (int w = 0; w < table.windows; ++w) {
        Jacobian acc = stark::toJacobian(windowBase);
        multiples[0] = acc;
        for (int k = 1; k < 256; ++k) {
            acc = stark::addMixed(acc, windowBase);
            multiples[static_cast<std::size_t>(k)] = acc; // (k+1)·windowBase
        }
        std::array<Affine, 256> normalized;
        batchNormalize(multiples, normalized.data());
        std::copy(normalized.begin(), normalized.begin() + 255,
                  table.entries[static_cast<std::size_t>(w)].begin());
        windowBase = normalized[255]; // 256·windowBase
    }
    return table;
}

struct PedersenTables {
    Affine shift;
    FixedBaseTable p0, p1, p2, p3;
};

const PedersenTables& tables() {
    static const PedersenTables value = [] {
        PedersenTables t;
        t.shift =
            point("2089986280348253421170679821480865132823066470938446095505822317253594081284",
                  "1713931329540660377023406109199410414810705867260802078187082345529207694986");
        t.p0 = buildTable(
            point("996781205833008774514500082376783249102396023663454813447423147977397232763",
                  "1668503676786377725805489344771023921079126552019160156920634619255970485781"),
            248);
        t.p1 = buildTable(
            point("2251563274489750535117886426533222435294046428347329203627021249169616184184",
                  "1798716007562728905295480679789526322175868328062420237419143593021674992973"),
            4);
        t.p2 = buildTable(
            point("2138414695194151160943305727036575959195309218611738193261179310511854807447",
                  "113410276730064486255102093846540133784865286929052426931474106396135072156"),
            248);
        t.p3 = buildTable(
            point("2379962749567351885752724891227938183011949129833673362440656643086021394946",
                  "776496453633298175483985398648758586525933812536653089401905292063708816422"),
            4);
        return t;
    }();
    return value;
}

// Adds value·P (value given as bytes of the scalar, low byte first) using the window table.
Jacobian addScaled(Jacobian acc, const FixedBaseTable& table, const std::uint8_t* bytes,
                   int byteCount) {
    for (int w = 0; w < byteCount && w < table.windows; ++w) {
        const int k = bytes[w];
        if (k != 0) {
            acc = stark::addMixed(
                acc, table.entries[static_cast<std::size_t>(w)][static_cast<std::size_t>(k - 1)]);
        }
    }
    return acc;
}

Jacobian addFelt(Jacobian acc, const Felt& value, const FixedBaseTable& low,
                 const FixedBaseTable& high) {
    std::uint8_t le[32];
    value.toBytesLE(le);
    // low: bits 0..247 = bytes 0..30; high: bits 248..251 = low nibble of byte 31.
    acc = addScaled(acc, low, le, 31);
    const std::uint8_t top = le[31] & 0x0f;
    return addScaled(acc, high, &top, 1);
}

} // namespace

Felt pedersenHash(const Felt& x, const Felt& y) {
    const PedersenTables& t = tables();
    Jacobian acc = stark::toJacobian(t.shift);
    acc = addFelt(acc, x, t.p0, t.p1);
    acc = addFelt(acc, y, t.p2, t.p3);
    return stark::toAffine(acc).xFelt();
}

Felt pedersenHashChain(const std::vector<Felt>& data) {
    if (data.empty()) {
        throw std::invalid_argument("pedersenHashChain needs at least one element");
    }
    Felt acc = data.back();
    for (std::size_t i = data.size() - 1; i-- > 0;) {
        acc = pedersenHash(data[i], acc);
    }
    return acc;
}

void warmUpPedersen() {
    (void)tables();
}

} // namespace proofdesk::crypto
