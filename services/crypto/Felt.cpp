#include "Felt.h"

#include "HexDigit.h"

#include "MontField.h"

#ifdef PROOFDESK_MONT_MULX
#include <cpuid.h>
#endif

#include <algorithm>

namespace proofdesk::crypto {
namespace {

__extension__ typedef unsigned __int128 u128;
using Limbs = Felt::Limbs;

// p = 2^251 + 17·2^192 + 1, little-endian limbs.
constexpr Limbs kP = {1, 0, 0, 0x0800000000000011ULL};

Limbs reduceOnce(Limbs value) {
    if (!u256::lessThan(value, kP)) {
        u256::subFrom(value, kP);
    }
    return value;
}

Limbs montMul(const Limbs& a, const Limbs& b) {
    return mont::mul(a, b);
}

// R^2 mod p with R = 2^256, computed once by doubling.
const Limbs& rSquared() {
    static const Limbs value = [] {
        Limbs x = {1, 0, 0, 0};
        for (int i = 0; i < 512; ++i) {
            const std::uint64_t carry = u256::addTo(x, x);
            (void)carry; // x < p < 2^252, so doubling never overflows 256 bits
            x = reduceOnce(x);
        }
        return x;
    }();
    return value;
}

Limbs pMinus(const Limbs& subtrahend) {
    Limbs out = kP;
    u256::subFrom(out, subtrahend);
    return out;
}

// (p - 1) / 2
const Limbs& halfP() {
    static const Limbs value = [] {
        Limbs h = kP;
        h[0] -= 1;
        for (int i = 0; i < 4; ++i) {
            h[i] = (h[i] >> 1) | (i < 3 ? (h[i + 1] << 63) : 0);
        }
        return h;
    }();
    return value;
}

} // namespace

// ---- u256 ----
namespace u256 {

bool lessThan(const Limbs& a, const Limbs& b) {
    for (int i = 3; i >= 0; --i) {
        if (a[i] != b[i]) {
            return a[i] < b[i];
        }
    }
    return false;
}

std::uint64_t addTo(Limbs& a, const Limbs& b) {
    u128 carry = 0;
    for (int i = 0; i < 4; ++i) {
        const u128 sum = static_cast<u128>(a[i]) + b[i] + carry;
        a[i] = static_cast<std::uint64_t>(sum);
        carry = sum >> 64;
    }
    return static_cast<std::uint64_t>(carry);
}

std::uint64_t subFrom(Limbs& a, const Limbs& b) {
    std::uint64_t borrow = 0;
    for (int i = 0; i < 4; ++i) {
        const u128 diff = static_cast<u128>(a[i]) - b[i] - borrow;
        a[i] = static_cast<std::uint64_t>(diff);
        borrow = static_cast<std::uint64_t>(diff >> 64) & 1;
    }
    return borrow;
}

std::optional<Limbs> parse(std::string_view text) {
    Limbs value = {0, 0, 0, 0};
    auto mulAdd = [&value](std::uint64_t factor, std::uint64_t addend) {
        u128 carry = addend;
        for (int i = 0; i < 4; ++i) {
            const u128 product = static_cast<u128>(value[i]) * factor + carry;
            value[i] = static_cast<std::uint64_t>(product);
            carry = product >> 64;
        }
        return carry == 0;
    };
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        for (char c : text.substr(2)) {
            const int d = hexDigitValue(static_cast<unsigned char>(c));
            if (d < 0 || !mulAdd(16, static_cast<std::uint64_t>(d))) {
                return std::nullopt;
            }
        }
        return value;
    }
    if (text.empty()) {
        return std::nullopt;
    }
    for (char c : text) {
        if (c < '0' || c > '9' || !mulAdd(10, static_cast<std::uint64_t>(c - '0'))) {
            return std::nullopt;
        }
    }
    return value;
}

std::string toHex(const Limbs& value) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    bool started = false;
    for (int i = 3; i >= 0; --i) {
        for (int shift = 60; shift >= 0; shift -= 4) {
            const int d = static_cast<int>((value[i] >> shift) & 0xf);
            if (d != 0 || started) {
                out.push_back(digits[d]);
                started = true;
            }
        }
    }
    std::string result("0x");
    result.append(out.empty() ? std::string("0") : out);
    return result;
}

std::string toDecimal(Limbs value) {
    std::string out;
    auto isZero = [&value] { return (value[0] | value[1] | value[2] | value[3]) == 0; };
    if (isZero()) {
        return "0";
    }
    while (!isZero()) {
        // Divide by 10^19 per round, emitting 19 digits.
        constexpr std::uint64_t kChunk = 10000000000000000000ULL;
        u128 remainder = 0;
        for (int i = 3; i >= 0; --i) {
            const u128 current = (remainder << 64) | value[i];
            value[i] = static_cast<std::uint64_t>(current / kChunk);
            remainder = current % kChunk;
        }
        std::uint64_t chunk = static_cast<std::uint64_t>(remainder);
        for (int d = 0; d < 19; ++d) {
            out.push_back(static_cast<char>('0' + chunk % 10));
            chunk /= 10;
            if (isZero() && chunk == 0) {
                break;
            }
        }
    }
    std::reverse(out.begin(), out.end());
    return out;
}

int bitLength(const Limbs& value) {
    for (int i = 3; i >= 0; --i) {
        if (value[i] != 0) {
            return i * 64 + 64 - __builtin_clzll(value[i]);
        }
    }
    return 0;
}

std::pair<Limbs, Limbs> divmod(const Limbs& dividend, const Limbs& divisor) {
    Limbs quotient{}, remainder{};
    for (int i = bitLength(dividend) - 1; i >= 0; --i) {
        const std::uint64_t top = remainder[3] >> 63;
        addTo(remainder, remainder);
        remainder[0] |= (dividend[static_cast<std::size_t>(i / 64)] >> (i % 64)) & 1;
        if (top || !lessThan(remainder, divisor)) {
            subFrom(remainder, divisor);
            quotient[static_cast<std::size_t>(i / 64)] |= 1ULL << (i % 64);
        }
    }
    return {quotient, remainder};
}

namespace {
Limbs mulLow(const Limbs& a, const Limbs& b) { // the low 256 bits of a·b
    __extension__ typedef unsigned __int128 u128;
    Limbs out{};
    for (int i = 0; i < 4; ++i) {
        u128 carry = 0;
        for (int j = 0; i + j < 4; ++j) {
            const u128 t =
                static_cast<u128>(a[static_cast<std::size_t>(j)]) * b[static_cast<std::size_t>(i)] +
                out[static_cast<std::size_t>(i + j)] + carry;
            out[static_cast<std::size_t>(i + j)] = static_cast<std::uint64_t>(t);
            carry = t >> 64;
        }
    }
    return out;
}
} // namespace

Limbs isqrt(const Limbs& n) {
    Limbs root{};
    for (int bit = 127; bit >= 0; --bit) {
        Limbs candidate = root;
        candidate[static_cast<std::size_t>(bit / 64)] |= 1ULL << (bit % 64);
        const Limbs square = mulLow(candidate, candidate);
        if (!u256::lessThan(n, square)) {
            root = candidate;
        }
    }
    return root;
}
} // namespace u256

// ---- mont ----
namespace mont {

#ifdef PROOFDESK_MONT_MULX
// Dynamic initialisation: a product computed before it runs takes the portable path.
// CPUID leaf 7, EBX: bit 8 is BMI2 (mulx), bit 19 is ADX (adcx, adox).
const bool kCpuHasMulx = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) == 0) {
        return false;
    }
    return (ebx & (1u << 8)) != 0 && (ebx & (1u << 19)) != 0;
}();
#endif

Limbs toMont(const Limbs& canonical) {
    return mul(canonical, rSquared());
}
Limbs fromMont(const Limbs& m) {
    return mul(m, {1, 0, 0, 0});
}
const Limbs& one() {
    static const Limbs value = toMont({1, 0, 0, 0});
    return value;
}
Limbs inverse(const Limbs& a) {
    // Fermat, a^(p-2), along an addition chain for p - 2 = 2^192·(2^59 + 16) + (2^192 - 1):
    // 250 squarings and 11 multiplications instead of the 444 operations of square-and-multiply.
    // Products stay lazily reduced (below 2p, which mulLazy accepts) until the end.
    const auto squareTimes = [](Limbs x, int times) {
        for (int i = 0; i < times; ++i) {
            x = mulLazy(x, x);
        }
        return x;
    };
    const auto mul = [](const Limbs& x, const Limbs& y) { return mulLazy(x, y); };
    // x_k = a^(2^k - 1), doubling k: x_2k = x_k^(2^k) · x_k.
    const Limbs x1 = a;
    const Limbs x2 = mul(squareTimes(x1, 1), x1);
    const Limbs x4 = mul(squareTimes(x2, 2), x2);
    const Limbs x8 = mul(squareTimes(x4, 4), x4);
    const Limbs x16 = mul(squareTimes(x8, 8), x8);
    const Limbs x32 = mul(squareTimes(x16, 16), x16);
    const Limbs x64 = mul(squareTimes(x32, 32), x32);
    const Limbs x128 = mul(squareTimes(x64, 64), x64);
    const Limbs x192 = mul(squareTimes(x128, 64), x64); // a^(2^192 - 1)
    // z = a^(2^192); a^(p-2) = z^(2^59) · z^16 · x192.
    const Limbs z = mul(x192, a);
    const Limbs z16 = squareTimes(z, 4);
    const Limbs z59 = squareTimes(z16, 55);
    return reduce(mul(mul(z59, z16), x192));
}

} // namespace mont

// ---- Felt ----
Felt Felt::fromU64(std::uint64_t value) {
    Felt f;
    f.m_limbs = {value, 0, 0, 0};
    return f;
}

Felt Felt::fromI64(std::int64_t value) {
    if (value >= 0) {
        return fromU64(static_cast<std::uint64_t>(value));
    }
    return -fromU64(static_cast<std::uint64_t>(-(value + 1)) + 1);
}

std::optional<Felt> Felt::fromLimbs(const Limbs& limbs) {
    if (!u256::lessThan(limbs, kP)) {
        return std::nullopt;
    }
    Felt f;
    f.m_limbs = limbs;
    return f;
}

Felt Felt::fromLimbsReduced(Limbs limbs) {
    // 2^256 / p < 32: subtract p while >= p (at most 31 times); cheaper via a shifted subtraction.
    for (int shift = 4; shift >= 0; --shift) {
        Limbs shifted = kP;
        for (int s = 0; s < shift; ++s) {
            const std::uint64_t carry = u256::addTo(shifted, shifted);
            (void)carry; // p·16 < 2^256
        }
        if (!u256::lessThan(limbs, shifted)) {
            u256::subFrom(limbs, shifted);
        }
    }
    Felt f;
    f.m_limbs = reduceOnce(limbs);
    return f;
}

std::optional<Felt> Felt::parse(std::string_view text) {
    bool negative = false;
    if (!text.empty() && text[0] == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    const auto value = u256::parse(text);
    if (!value) {
        return std::nullopt;
    }
    const Felt f = fromLimbsReduced(*value);
    return negative ? -f : f;
}

Felt Felt::fromBytesBE(const std::uint8_t* data, std::size_t size) {
    Limbs limbs = {0, 0, 0, 0};
    const std::size_t n = std::min<std::size_t>(size, 32);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t position = n - 1 - i; // byte index from the least significant end
        limbs[position / 8] |= static_cast<std::uint64_t>(data[i]) << (8 * (position % 8));
    }
    return fromLimbsReduced(limbs);
}

Felt Felt::powerOfTwo(int bits) {
    Limbs limbs{};
    limbs[static_cast<std::size_t>(bits / 64)] = 1ULL << (bits % 64);
    return *fromLimbs(limbs);
}

std::pair<Felt, Felt> divmod(const Felt& dividend, const Felt& divisor) {
    const auto [q, r] = u256::divmod(dividend.limbs(), divisor.limbs());
    return {*Felt::fromLimbs(q), *Felt::fromLimbs(r)};
}

const Felt& Felt::zero() {
    static const Felt value;
    return value;
}

const Felt& Felt::one() {
    static const Felt value = fromU64(1);
    return value;
}

const Felt::Limbs& Felt::modulus() {
    return kP;
}

int Felt::bitLength() const {
    return u256::bitLength(m_limbs);
}

std::string Felt::toHex() const {
    return u256::toHex(m_limbs);
}

std::string Felt::toDecimal() const {
    return u256::toDecimal(m_limbs);
}

std::string Felt::toSignedDecimal() const {
    if (u256::lessThan(halfP(), m_limbs)) {
        std::string result("-");
        result.append(u256::toDecimal(pMinus(m_limbs)));
        return result;
    }
    return toDecimal();
}

void Felt::toBytesBE(std::uint8_t out[32]) const {
    for (int i = 0; i < 32; ++i) {
        out[31 - i] = static_cast<std::uint8_t>(m_limbs[i / 8] >> (8 * (i % 8)));
    }
}

void Felt::toBytesLE(std::uint8_t out[32]) const {
    for (int i = 0; i < 32; ++i) {
        out[i] = static_cast<std::uint8_t>(m_limbs[i / 8] >> (8 * (i % 8)));
    }
}

Felt Felt::operator+(const Felt& other) const {
    Felt f;
    f.m_limbs = mont::add(m_limbs, other.m_limbs);
    return f;
}

Felt Felt::operator-(const Felt& other) const {
    Felt f;
    f.m_limbs = mont::sub(m_limbs, other.m_limbs);
    return f;
}

Felt Felt::operator-() const {
    return zero() - *this;
}

Felt Felt::operator*(const Felt& other) const {
    // (a·b·R^-1)·R^2·R^-1 = a·b
    Felt f;
    f.m_limbs = montMul(montMul(m_limbs, other.m_limbs), rSquared());
    return f;
}

Felt Felt::inverse() const {
    Felt f;
    f.m_limbs = mont::fromMont(mont::inverse(mont::toMont(m_limbs)));
    return f;
}

Felt Felt::pow(const Limbs& exponent) const {
    Limbs base = mont::toMont(m_limbs);
    Limbs result = mont::one();
    for (int i = u256::bitLength(exponent) - 1; i >= 0; --i) {
        result = mont::square(result);
        if ((exponent[i / 64] >> (i % 64)) & 1) {
            result = mont::mul(result, base);
        }
    }
    Felt f;
    f.m_limbs = mont::fromMont(result);
    return f;
}

std::optional<Felt> Felt::sqrt() const {
    if (isZero()) {
        return zero();
    }
    // Euler's criterion: a^((p-1)/2) == 1 for squares.
    if (pow(halfP()) != one()) {
        return std::nullopt;
    }
    // Tonelli-Shanks with p - 1 = q·2^s, s = 192, q = 2^59 + 17.
    constexpr int s = 192;
    const Limbs q = {(1ULL << 59) + 17, 0, 0, 0};
    // z = 3 is a quadratic non-residue mod p (3 is the field generator).
    Felt c = fromU64(3).pow(q);
    Felt x = pow({((1ULL << 59) + 17 + 1) / 2, 0, 0, 0});
    Felt t = pow(q);
    int m = s;
    while (t != one()) {
        int i = 0;
        Felt t2 = t;
        while (t2 != one()) {
            t2 = t2 * t2;
            ++i;
            if (i == m) {
                return std::nullopt;
            }
        }
        Felt b = c;
        for (int j = 0; j < m - i - 1; ++j) {
            b = b * b;
        }
        x = x * b;
        c = b * b;
        t = t * c;
        m = i;
    }
    // cairo-lang's sqrt hint takes the root that is <= p/2 ("the smaller one").
    const Felt other = -x;
    return other < x ? other : x;
}

bool Felt::u256LessThan(const Limbs& a, const Limbs& b) {
    return u256::lessThan(a, b);
}

} // namespace proofdesk::crypto
