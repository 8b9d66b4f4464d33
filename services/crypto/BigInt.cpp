#include "BigInt.h"

#include "HexDigit.h"

#include <algorithm>
#include <stdexcept>

namespace proofdesk::crypto {

void BigInt::trim(Magnitude& m) {
    while (!m.empty() && m.back() == 0) {
        m.pop_back();
    }
}

BigInt BigInt::make(bool negative, Magnitude magnitude) {
    trim(magnitude);
    BigInt out;
    out.m_negative = negative && !magnitude.empty();
    out.m_magnitude = std::move(magnitude);
    return out;
}

BigInt::BigInt(std::int64_t value) {
    m_negative = value < 0;
    std::uint64_t magnitude = m_negative ? static_cast<std::uint64_t>(-(value + 1)) + 1
                                         : static_cast<std::uint64_t>(value);
    while (magnitude != 0) {
        m_magnitude.push_back(static_cast<std::uint32_t>(magnitude));
        magnitude >>= 32;
    }
}

BigInt BigInt::fromU256(const Felt::Limbs& limbs) {
    Magnitude m;
    for (std::uint64_t limb : limbs) {
        m.push_back(static_cast<std::uint32_t>(limb));
        m.push_back(static_cast<std::uint32_t>(limb >> 32));
    }
    return make(false, std::move(m));
}

BigInt BigInt::fromFelt(const Felt& value) {
    return fromU256(value.limbs());
}

BigInt BigInt::fromFeltSigned(const Felt& value) {
    const BigInt unsigned_ = fromFelt(value);
    const BigInt prime = fromFelt(-Felt::one()) + 1;
    // as_int: values above p/2 stand for value - p.
    return unsigned_ > (prime >> 1) ? unsigned_ - prime : unsigned_;
}

BigInt BigInt::powerOfTwo(int bits) {
    return BigInt(1) << bits;
}

std::optional<BigInt> BigInt::parse(std::string_view text) {
    bool negative = false;
    if (!text.empty() && text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    if (text.empty()) {
        return std::nullopt;
    }
    BigInt value;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        for (char c : text.substr(2)) {
            const int digit = hexDigitValue(static_cast<unsigned char>(c));
            if (digit < 0) {
                return std::nullopt;
            }
            value = (value << 4) + BigInt(digit);
        }
    } else {
        for (char c : text) {
            if (c < '0' || c > '9') {
                return std::nullopt;
            }
            value = value * BigInt(10) + BigInt(c - '0');
        }
    }
    return negative ? -value : value;
}

Felt BigInt::toFelt() const {
    const BigInt prime = fromFelt(-Felt::one()) + 1;
    const BigInt reduced = mod(prime);
    return *Felt::fromLimbs(*reduced.toU256());
}

std::optional<Felt::Limbs> BigInt::toU256() const {
    if (m_negative || m_magnitude.size() > 8) {
        return std::nullopt;
    }
    Felt::Limbs limbs{0, 0, 0, 0};
    for (std::size_t i = 0; i < m_magnitude.size(); ++i) {
        limbs[i / 2] |= static_cast<std::uint64_t>(m_magnitude[i]) << (32 * (i % 2));
    }
    return limbs;
}

int BigInt::bitLength() const {
    if (m_magnitude.empty()) {
        return 0;
    }
    int bits = static_cast<int>(m_magnitude.size() - 1) * 32;
    for (std::uint32_t top = m_magnitude.back(); top != 0; top >>= 1) {
        ++bits;
    }
    return bits;
}

std::uint64_t BigInt::low64() const {
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < std::min<std::size_t>(2, m_magnitude.size()); ++i) {
        value |= static_cast<std::uint64_t>(m_magnitude[i]) << (32 * i);
    }
    return value;
}

int BigInt::compareMagnitude(const Magnitude& a, const Magnitude& b) {
    if (a.size() != b.size()) {
        return a.size() < b.size() ? -1 : 1;
    }
    for (std::size_t i = a.size(); i-- > 0;) {
        if (a[i] != b[i]) {
            return a[i] < b[i] ? -1 : 1;
        }
    }
    return 0;
}

int BigInt::compare(const BigInt& a, const BigInt& b) {
    if (a.m_negative != b.m_negative) {
        return a.m_negative ? -1 : 1;
    }
    const int magnitude = compareMagnitude(a.m_magnitude, b.m_magnitude);
    return a.m_negative ? -magnitude : magnitude;
}

BigInt::Magnitude BigInt::addMagnitude(const Magnitude& a, const Magnitude& b) {
    const Magnitude& longer = a.size() >= b.size() ? a : b;
    const Magnitude& shorter = a.size() >= b.size() ? b : a;
    Magnitude out(longer.size() + 1, 0);
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < longer.size(); ++i) {
        const std::uint64_t sum =
            static_cast<std::uint64_t>(longer[i]) + (i < shorter.size() ? shorter[i] : 0) + carry;
        out[i] = static_cast<std::uint32_t>(sum);
        carry = sum >> 32;
    }
    out[longer.size()] = static_cast<std::uint32_t>(carry);
    trim(out);
    return out;
}

BigInt::Magnitude BigInt::subMagnitude(const Magnitude& a, const Magnitude& b) {
    Magnitude out(a.size(), 0);
    std::int64_t borrow = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        std::int64_t diff = static_cast<std::int64_t>(a[i]) -
                            static_cast<std::int64_t>(i < b.size() ? b[i] : 0) - borrow;
        borrow = diff < 0 ? 1 : 0;
        if (diff < 0) {
            diff += std::int64_t{1} << 32;
        }
        out[i] = static_cast<std::uint32_t>(diff);
    }
    trim(out);
    return out;
}

BigInt::Magnitude BigInt::mulMagnitude(const Magnitude& a, const Magnitude& b) {
    if (a.empty() || b.empty()) {
        return {};
    }
    Magnitude out(a.size() + b.size(), 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
        std::uint64_t carry = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            const std::uint64_t t = static_cast<std::uint64_t>(a[i]) * b[j] + out[i + j] + carry;
            out[i + j] = static_cast<std::uint32_t>(t);
            carry = t >> 32;
        }
        out[i + b.size()] = static_cast<std::uint32_t>(carry);
    }
    trim(out);
    return out;
}

// Knuth's algorithm D (TAOCP 4.3.1) on 32-bit digits.
void BigInt::divmodMagnitude(const Magnitude& a, const Magnitude& b, Magnitude* q, Magnitude* r) {
    if (compareMagnitude(a, b) < 0) {
        *q = {};
        *r = a;
        return;
    }
    if (b.size() == 1) {
        Magnitude quotient(a.size(), 0);
        std::uint64_t rem = 0;
        for (std::size_t i = a.size(); i-- > 0;) {
            const std::uint64_t cur = (rem << 32) | a[i];
            quotient[i] = static_cast<std::uint32_t>(cur / b[0]);
            rem = cur % b[0];
        }
        trim(quotient);
        *q = std::move(quotient);
        *r = rem ? Magnitude{static_cast<std::uint32_t>(rem)} : Magnitude{};
        return;
    }
    const std::size_t n = b.size();
    const std::size_t m = a.size() - n;
    int shift = 0;
    for (std::uint32_t top = b.back(); !(top & 0x80000000u); top <<= 1) {
        ++shift;
    }
    // Normalise so that the divisor's top digit has its high bit set.
    Magnitude vn(n), un(a.size() + 1);
    for (std::size_t i = n; i-- > 1;) {
        vn[i] = (b[i] << shift) | (shift ? static_cast<std::uint32_t>(
                                               static_cast<std::uint64_t>(b[i - 1]) >> (32 - shift))
                                         : 0);
    }
    vn[0] = b[0] << shift;
    un[a.size()] =
        shift ? static_cast<std::uint32_t>(static_cast<std::uint64_t>(a.back()) >> (32 - shift))
              : 0;
    for (std::size_t i = a.size(); i-- > 1;) {
        un[i] = (a[i] << shift) | (shift ? static_cast<std::uint32_t>(
                                               static_cast<std::uint64_t>(a[i - 1]) >> (32 - shift))
                                         : 0);
    }
    un[0] = a[0] << shift;

    Magnitude quotient(m + 1, 0);
    const std::uint64_t base = std::uint64_t{1} << 32;
    for (std::size_t j = m + 1; j-- > 0;) {
        const std::uint64_t numerator =
            (static_cast<std::uint64_t>(un[j + n]) << 32) | un[j + n - 1];
        std::uint64_t qhat = numerator / vn[n - 1];
        std::uint64_t rhat = numerator % vn[n - 1];
        while (qhat >= base || qhat * vn[n - 2] > ((rhat << 32) | un[j + n - 2])) {
            --qhat;
            rhat += vn[n - 1];
            if (rhat >= base) {
                break;
            }
        }
        // Multiply and subtract.
        std::int64_t borrow = 0;
        std::uint64_t carry = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t product = qhat * vn[i] + carry;
            carry = product >> 32;
            const std::int64_t t = static_cast<std::int64_t>(un[i + j]) - borrow -
                                   static_cast<std::int64_t>(product & 0xffffffffu);
            un[i + j] = static_cast<std::uint32_t>(t);
            borrow = t < 0 ? 1 : 0;
        }
        const std::int64_t t =
            static_cast<std::int64_t>(un[j + n]) - borrow - static_cast<std::int64_t>(carry);
        un[j + n] = static_cast<std::uint32_t>(t);
        quotient[j] = static_cast<std::uint32_t>(qhat);
        if (t < 0) {
            // Added back: qhat was one too large.
            quotient[j] -= 1;
            std::uint64_t c = 0;
            for (std::size_t i = 0; i < n; ++i) {
                const std::uint64_t s = static_cast<std::uint64_t>(un[i + j]) + vn[i] + c;
                un[i + j] = static_cast<std::uint32_t>(s);
                c = s >> 32;
            }
            un[j + n] = static_cast<std::uint32_t>(static_cast<std::uint64_t>(un[j + n]) + c);
        }
    }
    Magnitude remainder(n);
    for (std::size_t i = 0; i < n; ++i) {
        remainder[i] = (un[i] >> shift) |
                       (shift ? static_cast<std::uint32_t>(static_cast<std::uint64_t>(un[i + 1])
                                                           << (32 - shift))
                              : 0);
    }
    trim(quotient);
    trim(remainder);
    *q = std::move(quotient);
    *r = std::move(remainder);
}

BigInt BigInt::operator-() const {
    return make(!m_negative, m_magnitude);
}

BigInt operator+(const BigInt& a, const BigInt& b) {
    if (a.m_negative == b.m_negative) {
        return BigInt::make(a.m_negative, BigInt::addMagnitude(a.m_magnitude, b.m_magnitude));
    }
    const int order = BigInt::compareMagnitude(a.m_magnitude, b.m_magnitude);
    if (order == 0) {
        return BigInt();
    }
    return order > 0
               ? BigInt::make(a.m_negative, BigInt::subMagnitude(a.m_magnitude, b.m_magnitude))
               : BigInt::make(b.m_negative, BigInt::subMagnitude(b.m_magnitude, a.m_magnitude));
}

BigInt operator-(const BigInt& a, const BigInt& b) {
    return a + (-b);
}

BigInt operator*(const BigInt& a, const BigInt& b) {
    return BigInt::make(a.m_negative != b.m_negative,
                        BigInt::mulMagnitude(a.m_magnitude, b.m_magnitude));
}

BigInt BigInt::operator<<(int bits) const {
    if (isZero() || bits == 0) {
        return *this;
    }
    const std::size_t words = static_cast<std::size_t>(bits / 32);
    const int shift = bits % 32;
    Magnitude out(m_magnitude.size() + words + 1, 0);
    for (std::size_t i = 0; i < m_magnitude.size(); ++i) {
        const std::uint64_t v = static_cast<std::uint64_t>(m_magnitude[i]) << shift;
        out[i + words] |= static_cast<std::uint32_t>(v);
        out[i + words + 1] |= static_cast<std::uint32_t>(v >> 32);
    }
    return make(m_negative, std::move(out));
}

BigInt BigInt::operator>>(int bits) const {
    if (m_negative) {
        // floor(-x / 2^k) = -ceil(x / 2^k)
        const BigInt divisor = powerOfTwo(bits);
        return divmod(*this, divisor).first;
    }
    const std::size_t words = static_cast<std::size_t>(bits / 32);
    if (words >= m_magnitude.size()) {
        return BigInt();
    }
    const int shift = bits % 32;
    Magnitude out(m_magnitude.size() - words, 0);
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::uint64_t v = m_magnitude[i + words] >> shift;
        if (shift && i + words + 1 < m_magnitude.size()) {
            v |= static_cast<std::uint64_t>(m_magnitude[i + words + 1]) << (32 - shift);
        }
        out[i] = static_cast<std::uint32_t>(v);
    }
    return make(false, std::move(out));
}

std::pair<BigInt, BigInt> BigInt::divmod(const BigInt& a, const BigInt& b) {
    if (b.isZero()) {
        throw std::domain_error("division by zero");
    }
    Magnitude q, r;
    divmodMagnitude(a.m_magnitude, b.m_magnitude, &q, &r);
    BigInt quotient = make(a.m_negative != b.m_negative, std::move(q));
    BigInt remainder = make(a.m_negative, std::move(r));
    // Truncated -> floor: when the remainder's sign differs from the divisor's, step once.
    if (!remainder.isZero() && remainder.m_negative != b.m_negative) {
        quotient = quotient - BigInt(1);
        remainder = remainder + b;
    }
    return {quotient, remainder};
}

BigInt BigInt::powMod(const BigInt& base, const BigInt& exponent, const BigInt& m) {
    BigInt result = BigInt(1).mod(m);
    BigInt b = base.mod(m);
    for (int i = exponent.bitLength() - 1; i >= 0; --i) {
        result = (result * result).mod(m);
        if ((exponent.m_magnitude[static_cast<std::size_t>(i / 32)] >> (i % 32)) & 1) {
            result = (result * b).mod(m);
        }
    }
    return result;
}

std::optional<BigInt> BigInt::inverseMod(const BigInt& a, const BigInt& m) {
    // Extended Euclid on (a mod m, m).
    BigInt r0 = m, r1 = a.mod(m), t0 = 0, t1 = 1;
    while (!r1.isZero()) {
        auto [q, r] = divmod(r0, r1);
        r0 = std::move(r1);
        r1 = std::move(r);
        BigInt t = t0 - q * t1;
        t0 = std::move(t1);
        t1 = std::move(t);
    }
    if (r0 != BigInt(1)) {
        return std::nullopt;
    }
    return t0.mod(m);
}

std::optional<BigInt> BigInt::divMod(const BigInt& a, const BigInt& b, const BigInt& m) {
    auto inverse = inverseMod(b, m);
    if (!inverse) {
        return std::nullopt;
    }
    return (a * *inverse).mod(m);
}

BigInt BigInt::isqrt(const BigInt& n) {
    if (n.isZero()) {
        return BigInt();
    }
    // Newton's iteration from above.
    BigInt x = powerOfTwo((n.bitLength() + 1) / 2 + 1);
    while (true) {
        const BigInt y = (x + divmod(n, x).first) >> 1;
        if (y >= x) {
            return x;
        }
        x = y;
    }
}

bool BigInt::isQuadResidue(const BigInt& n, const BigInt& p) {
    const BigInt reduced = n.mod(p);
    return reduced.isZero() || powMod(reduced, (p - BigInt(1)) >> 1, p) == BigInt(1);
}

std::optional<BigInt> BigInt::sqrtModPrime(const BigInt& n, const BigInt& p) {
    if (p <= BigInt(0)) {
        return std::nullopt;
    }
    const BigInt a = n.mod(p);
    if (a.isZero()) {
        return BigInt();
    }
    if (!p.isOdd() || p == BigInt(1) || !isQuadResidue(a, p)) {
        return std::nullopt;
    }
    // p - 1 = q·2^s with q odd.
    BigInt q = p - BigInt(1);
    int s = 0;
    while (!q.isOdd()) {
        q = q >> 1;
        ++s;
    }
    // A non-residue z: the smallest is tiny for a prime; a bound keeps a composite p finite.
    BigInt z(2);
    for (int tries = 0; isQuadResidue(z, p); ++tries) {
        if (tries == 4096) {
            return std::nullopt;
        }
        z = z + BigInt(1);
    }
    int m = s;
    BigInt c = powMod(z, q, p);
    BigInt t = powMod(a, q, p);
    BigInt r = powMod(a, (q + BigInt(1)) >> 1, p);
    const BigInt one(1);
    while (t != one) {
        int i = 0;
        BigInt t2 = t;
        while (t2 != one) {
            t2 = (t2 * t2).mod(p);
            if (++i >= m) {
                return std::nullopt; // only a composite p gets here
            }
        }
        BigInt b = c;
        for (int k = 0; k < m - i - 1; ++k) {
            b = (b * b).mod(p);
        }
        m = i;
        c = (b * b).mod(p);
        t = (t * c).mod(p);
        r = (r * b).mod(p);
    }
    if ((r * r).mod(p) != a) {
        return std::nullopt;
    }
    const BigInt other = p - r;
    return other < r ? other : r;
}

std::string BigInt::toDecimal() const {
    if (isZero()) {
        return "0";
    }
    std::string digits;
    Magnitude current = m_magnitude;
    const Magnitude billion = {1000000000u};
    while (!current.empty()) {
        Magnitude q, r;
        divmodMagnitude(current, billion, &q, &r);
        std::uint32_t chunk = r.empty() ? 0 : r[0];
        for (int i = 0; i < 9; ++i) {
            digits.push_back(static_cast<char>('0' + chunk % 10));
            chunk /= 10;
            if (q.empty() && chunk == 0) {
                break;
            }
        }
        current = std::move(q);
    }
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
    }
    if (m_negative) {
        digits.push_back('-');
    }
    std::reverse(digits.begin(), digits.end());
    return digits;
}

std::string BigInt::toHex() const {
    static const char* hex = "0123456789abcdef";
    std::string digits;
    for (std::uint32_t limb : m_magnitude) {
        for (int i = 0; i < 8; ++i) {
            digits.push_back(hex[(limb >> (4 * i)) & 0xf]);
        }
    }
    while (!digits.empty() && digits.back() == '0') {
        digits.pop_back();
    }
    if (digits.empty()) {
        digits.push_back('0');
    }
    digits.push_back('x');
    digits.push_back('0');
    if (m_negative) {
        digits.push_back('-');
    }
    std::reverse(digits.begin(), digits.end());
    return digits;
}

} // namespace proofdesk::crypto
