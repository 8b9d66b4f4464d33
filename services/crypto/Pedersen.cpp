#include "Pedersen.h"

#include "MontField.h"

#include "StarkCurve.h"

#include <array>
#include <atomic>
#include <cstdint>
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

// Window widths of the fixed-base tables. A hash adds one table entry per window of each input:
// 2 × 21 + 2 additions with 12-bit windows, whose 11 MB of tables take about 170,000 additions
// (some 50 ms) to build; 2 × 62 + 2 with 4-bit windows, whose tables take 1,900 (well under a
// millisecond). A process hashes with the small tables first and builds the large ones once it
// has hashed enough for them to pay off (kLargeTablesAfter), so `proofdesk verify`, which hashes
// a program's words once, does not spend most of its time building tables (issue #48).
constexpr int kSmallWindowBits = 4;
constexpr int kLargeWindowBits = 12;
constexpr std::uint64_t kLargeTablesAfter = 4096;

// entries[w * perWindow + k - 1] = k·2^(windowBits·w)·P for k in 1..2^windowBits - 1, in affine
// coordinates.
struct FixedBaseTable {
    int windowBits = 0;
    int windows = 0;
    std::size_t perWindow = 0;
    std::vector<Affine> entries;
    const Affine& at(int window, int k) const {
        return entries[static_cast<std::size_t>(window) * perWindow +
                       static_cast<std::size_t>(k - 1)];
    }
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

FixedBaseTable buildTable(const Affine& base, int bits, int windowBits) {
    FixedBaseTable table;
    table.windowBits = windowBits;
    table.windows = (bits + windowBits - 1) / windowBits;
    table.perWindow = (std::size_t{1} << windowBits) - 1;
    table.entries.resize(static_cast<std::size_t>(table.windows) * table.perWindow);
    Affine windowBase = base;
    std::vector<Jacobian> multiples(table.perWindow + 1);
    std::vector<Affine> normalized(multiples.size());
    for (int w = 0; w < table.windows; ++w) {
        Jacobian acc = stark::toJacobian(windowBase);
        multiples[0] = acc;
        for (std::size_t k = 1; k < multiples.size(); ++k) {
            acc = stark::addMixed(acc, windowBase);
            multiples[k] = acc; // (k+1)·windowBase
        }
        batchNormalize(multiples, normalized.data());
        std::copy(normalized.begin(),
                  normalized.begin() + static_cast<std::ptrdiff_t>(table.perWindow),
                  table.entries.begin() + static_cast<std::ptrdiff_t>(w * table.perWindow));
        windowBase = normalized.back(); // 2^windowBits·windowBase
    }
    return table;
}

struct PedersenTables {
    Affine shift;
    FixedBaseTable p0, p1, p2, p3;
};

const std::array<Affine, 5>& constantPoints() {
    static const std::array<Affine, 5> value = {
        point("2089986280348253421170679821480865132823066470938446095505822317253594081284",
              "1713931329540660377023406109199410414810705867260802078187082345529207694986"),
        point("996781205833008774514500082376783249102396023663454813447423147977397232763",
              "1668503676786377725805489344771023921079126552019160156920634619255970485781"),
        point("2251563274489750535117886426533222435294046428347329203627021249169616184184",
              "1798716007562728905295480679789526322175868328062420237419143593021674992973"),
        point("2138414695194151160943305727036575959195309218611738193261179310511854807447",
              "113410276730064486255102093846540133784865286929052426931474106396135072156"),
        point("2379962749567351885752724891227938183011949129833673362440656643086021394946",
              "776496453633298175483985398648758586525933812536653089401905292063708816422")};
    return value;
}

PedersenTables buildTables(int windowBits) {
    const auto& points = constantPoints();
    PedersenTables t;
    t.shift = points[0];
    t.p0 = buildTable(points[1], 248, windowBits);
    t.p1 = buildTable(points[2], 4, windowBits);
    t.p2 = buildTable(points[3], 248, windowBits);
    t.p3 = buildTable(points[4], 4, windowBits);
    return t;
}

const PedersenTables& largeTables() {
    static const PedersenTables value = buildTables(kLargeWindowBits);
    return value;
}

std::atomic<bool> g_largeTablesBuilt{false};
std::atomic<std::uint64_t> g_hashesBeforeLargeTables{0};

// The small tables for a process's first hashes, the large ones after (see kLargeTablesAfter).
const PedersenTables& tables() {
    if (g_largeTablesBuilt.load(std::memory_order_acquire)) {
        return largeTables();
    }
    if (g_hashesBeforeLargeTables.fetch_add(1, std::memory_order_relaxed) < kLargeTablesAfter) {
        static const PedersenTables small = buildTables(kSmallWindowBits);
        return small;
    }
    const PedersenTables& large = largeTables();
    g_largeTablesBuilt.store(true, std::memory_order_release);
    return large;
}

// Bits [from, from + count) of a little-endian 256-bit value.
int bitsAt(const Felt::Limbs& limbs, int from, int count) {
    const int limb = from / 64;
    const int shift = from % 64;
    std::uint64_t value = limbs[static_cast<std::size_t>(limb)] >> shift;
    if (shift + count > 64 && limb + 1 < 4) {
        value |= limbs[static_cast<std::size_t>(limb + 1)] << (64 - shift);
    }
    return static_cast<int>(value & ((std::uint64_t{1} << count) - 1));
}

// Adds value·P for `bits` bits of the scalar starting at bit `from`, one table entry per window.
Jacobian addScaled(Jacobian acc, const FixedBaseTable& table, const Felt::Limbs& limbs, int from,
                   int bits) {
    for (int w = 0; w < table.windows; ++w) {
        const int start = w * table.windowBits;
        const int k = bitsAt(limbs, from + start, std::min(table.windowBits, bits - start));
        if (k != 0) {
            acc = stark::addMixed(acc, table.at(w, k));
        }
    }
    return acc;
}

Jacobian addFelt(Jacobian acc, const Felt& value, const FixedBaseTable& low,
                 const FixedBaseTable& high) {
    // low: bits 0..247; high: bits 248..251.
    acc = addScaled(acc, low, value.limbs(), 0, 248);
    return addScaled(acc, high, value.limbs(), 248, 4);
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

std::array<std::pair<Felt, Felt>, 5> pedersenConstantPoints() {
    std::array<std::pair<Felt, Felt>, 5> out;
    for (std::size_t i = 0; i < 5; ++i) {
        out[i] = {constantPoints()[i].xFelt(), constantPoints()[i].yFelt()};
    }
    return out;
}

void warmUpPedersen() {
    (void)largeTables();
    g_largeTablesBuilt.store(true, std::memory_order_release);
}

} // namespace proofdesk::crypto
