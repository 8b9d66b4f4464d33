// The secp hint family (cairo_secp bigint/field/ec/signature) run the way Cairo's ec_double,
// verify_zero and div_mod_n run them, checked against secp256k1's published generator and 2·G.

#include "HintFixture.h"

#include "crypto/BigInt.h"

using namespace proofdesk;
using namespace proofdesk::test;
using crypto::BigInt;

namespace {

const BigInt kP = BigInt::powerOfTwo(256) - BigInt::powerOfTwo(32) - BigInt(977);
const BigInt kN =
    *BigInt::parse("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
// The secp256k1 generator and 2·G (SEC 2, and every secp256k1 library's test vectors).
const BigInt kGx =
    *BigInt::parse("0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");
const BigInt kGy =
    *BigInt::parse("0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8");
const BigInt k2Gx =
    *BigInt::parse("0xc6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5");
const BigInt k2Gy =
    *BigInt::parse("0x1ae168fea63dc339a3c58419466ceaeef7f632653266d0e1236431a950cfe52a");

// Three 86-bit limbs, as secp_utils.split writes them.
std::vector<Felt> limbs(BigInt value) {
    std::vector<Felt> out;
    for (int i = 0; i < 3; ++i) {
        auto [q, r] = BigInt::divmod(value, BigInt::powerOfTwo(86));
        out.push_back(r.toFelt());
        value = q;
    }
    return out;
}

void setBig(Fixture& f, const std::string& name, int at, const BigInt& value) {
    const std::vector<Felt> l = limbs(value);
    for (int i = 0; i < 3; ++i) {
        f.setAt(name, at + i, l[static_cast<std::size_t>(i)]);
    }
}

BigInt getBig(Fixture& f, const std::string& name, int at = 0) {
    BigInt sum;
    for (int i = 2; i >= 0; --i) {
        sum = sum * BigInt::powerOfTwo(86) + BigInt::fromFelt(f.get(name, at + i));
    }
    return sum;
}

const char* kNondet = "from starkware.cairo.common.cairo_secp.secp_utils import split\n\n"
                      "segments.write_arg(ids.res.address_, split(value))";

} // namespace

class CairoSecpHintsTest : public QObject {
    Q_OBJECT
private slots:
    void bigIntHasPythonSemantics() {
        const auto [q, r] = BigInt::divmod(BigInt(-7), BigInt(2));
        QCOMPARE(q.toDecimal(), std::string("-4"));
        QCOMPARE(r.toDecimal(), std::string("1"));
        const auto [q2, r2] = BigInt::divmod(BigInt(7), BigInt(-2));
        QCOMPARE(q2.toDecimal(), std::string("-4"));
        QCOMPARE(r2.toDecimal(), std::string("-1"));
        QCOMPARE(BigInt::parse("-0x10")->toDecimal(), std::string("-16"));
        QCOMPARE(BigInt::powerOfTwo(300).toHex(), "0x1" + std::string(75, '0'));
        QCOMPARE((BigInt(-1) >> 3).toDecimal(), std::string("-1"));
        // Fermat and the extended Euclid agree; 2^255-19 is prime.
        const BigInt ed = BigInt::powerOfTwo(255) - BigInt(19);
        const BigInt a = *BigInt::parse("123456789123456789123456789");
        QCOMPARE(*BigInt::inverseMod(a, ed), BigInt::powMod(a, ed - BigInt(2), ed));
        QCOMPARE(BigInt::isqrt(BigInt::powerOfTwo(200) + BigInt(5)), BigInt::powerOfTwo(100));
        QVERIFY(!BigInt::inverseMod(BigInt(6), BigInt(9)));
        // A 512-bit by 256-bit division round trip.
        const BigInt big = kGx * kGy + BigInt(12345);
        const auto [bq, br] = BigInt::divmod(big, kGx);
        QCOMPARE(bq, kGy);
        QCOMPARE(br, BigInt(12345));
        QCOMPARE(BigInt::fromFeltSigned(-Felt::fromU64(5)).toDecimal(), std::string("-5"));
    }

    void ecDoubleOfTheGeneratorIsTwoG() {
        Fixture f({"point", "slope", "res"}, {},
                  {{"point", "EcPoint"}, {"slope", "BigInt3"}, {"res", "BigInt3"}});
        setBig(f, "point", 0, kGx);
        setBig(f, "point", 3, kGy);
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
from starkware.python.math_utils import ec_double_slope

# Compute the slope.
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)
value = slope = ec_double_slope(point=(x, y), alpha=0, p=SECP_P))");
        f.run(kNondet);
        const BigInt slope = getBig(f, "res");
        QCOMPARE(slope, *BigInt::divMod(BigInt(3) * kGx * kGx, BigInt(2) * kGy, kP));
        setBig(f, "slope", 0, slope);
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

slope = pack(ids.slope, PRIME)
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - 2 * x) % SECP_P)");
        QCOMPARE(f.scopeValue("new_x"), k2Gx);
        f.run("value = new_y = (slope * (x - new_x) - y) % SECP_P");
        QCOMPARE(f.scopeValue("new_y"), k2Gy);
    }

    void lineSlopeAndNewPointOfAnAddition() {
        Fixture f({"point0", "point1", "slope"}, {},
                  {{"point0", "EcPoint"}, {"point1", "EcPoint"}, {"slope", "BigInt3"}});
        setBig(f, "point0", 0, kGx);
        setBig(f, "point0", 3, kGy);
        setBig(f, "point1", 0, k2Gx);
        setBig(f, "point1", 3, k2Gy);
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack
from starkware.python.math_utils import line_slope

# Compute the slope.
x0 = pack(ids.point0.x, PRIME)
y0 = pack(ids.point0.y, PRIME)
x1 = pack(ids.point1.x, PRIME)
y1 = pack(ids.point1.y, PRIME)
value = slope = line_slope(point1=(x0, y0), point2=(x1, y1), p=SECP_P))");
        const BigInt slope = f.scopeValue("slope");
        setBig(f, "slope", 0, slope);
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

slope = pack(ids.slope, PRIME)
x0 = pack(ids.point0.x, PRIME)
x1 = pack(ids.point1.x, PRIME)
y0 = pack(ids.point0.y, PRIME)

value = new_x = (pow(slope, 2, SECP_P) - x0 - x1) % SECP_P)");
        f.run("value = new_y = (slope * (x0 - new_x) - y0) % SECP_P");
        // 3·G (SEC test vectors).
        QCOMPARE(
            f.scopeValue("new_x"),
            *BigInt::parse("0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9"));
        QCOMPARE(
            f.scopeValue("new_y"),
            *BigInt::parse("0x388f7b0f632de8140fe337e62a37f3566500a99934c2231b6cb9fd7584b8e672"));
    }

    void verifyZeroWritesTheQuotientOrRefuses() {
        Fixture f({"val", "q"}, {}, {{"val", "BigInt3"}});
        const char* code = R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

q, r = divmod(pack(ids.val, PRIME), SECP_P)
assert r == 0, f"verify_zero: Invalid input {ids.val.d0, ids.val.d1, ids.val.d2}."
ids.q = q % PRIME)";
        // val = 3·P (fits three 86-bit limbs): q = 3.
        setBig(f, "val", 0, kP * BigInt(3));
        f.run(code);
        QCOMPARE(f.get("q"), Felt::fromU64(3));
        // A negative limb: pack(-P) = -P, q = -1 (written mod PRIME).
        Fixture g({"val", "q"}, {}, {{"val", "BigInt3"}});
        const std::vector<Felt> l = limbs(kP);
        for (int i = 0; i < 3; ++i) {
            g.setAt("val", i, -l[static_cast<std::size_t>(i)]);
        }
        g.run(code);
        QCOMPARE(g.get("q"), -Felt::one());
        Fixture h({"val", "q"}, {}, {{"val", "BigInt3"}});
        setBig(h, "val", 0, kP + BigInt(1));
        bool refused = false;
        try {
            h.run(code);
        } catch (const std::exception& error) {
            refused =
                std::string(error.what()).find("verify_zero: Invalid input") != std::string::npos;
        }
        QVERIFY(refused);
    }

    void divModNAndSafeDiv() {
        Fixture f({"a", "b", "res"}, {}, {{"a", "BigInt3"}, {"b", "BigInt3"}, {"res", "BigInt3"}});
        const BigInt a = *BigInt::parse("0x1234567890abcdef1234567890abcdef");
        const BigInt b = *BigInt::parse("0xfedcba0987654321fedcba0987654321");
        setBig(f, "a", 0, a);
        setBig(f, "b", 0, b);
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import N, pack
from starkware.python.math_utils import div_mod, safe_div

a = pack(ids.a, PRIME)
b = pack(ids.b, PRIME)
value = res = div_mod(a, b, N))");
        const BigInt res = f.scopeValue("res");
        QCOMPARE((res * b).mod(kN), a);
        f.run("value = k = safe_div(res * b - a, N)");
        QCOMPARE(f.scopeValue("k") * kN, res * b - a);
        f.run(kNondet);
        QCOMPARE(getBig(f, "res"), f.scopeValue("k"));
    }

    void pointFromXPicksTheParity() {
        Fixture f({"x_cube", "v"}, {{"BETA", 7}}, {{"x_cube", "BigInt3"}});
        setBig(f, "x_cube", 0, (kGx * kGx * kGx).mod(kP));
        const char* code = R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

x_cube_int = pack(ids.x_cube, PRIME) % SECP_P
y_square_int = (x_cube_int + ids.BETA) % SECP_P
y = pow(y_square_int, (SECP_P + 1) // 4, SECP_P)

# We need to decide whether to take y or SECP_P - y.
if ids.v % 2 == y % 2:
    value = y
else:
    value = (-y) % SECP_P)";
        f.set("v", Felt::zero()); // Gy is even
        f.run(code);
        QCOMPARE(f.scopeValue("value"), kGy);
        Fixture g({"x_cube", "v"}, {{"BETA", 7}}, {{"x_cube", "BigInt3"}});
        setBig(g, "x_cube", 0, (kGx * kGx * kGx).mod(kP));
        g.set("v", Felt::one());
        g.run(code);
        QCOMPARE(g.scopeValue("value"), kP - kGy);
    }

    void isZeroAndInverse() {
        Fixture f({"x"}, {}, {{"x", "BigInt3"}});
        setBig(f, "x", 0, kP + BigInt(3)); // ≡ 3
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P, pack

x = pack(ids.x, PRIME) % SECP_P)");
        f.run("memory[ap] = to_felt_or_relocatable(x == 0)");
        QCOMPARE(f.memory.get(f.vm->ap).felt(), Felt::zero());
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import SECP_P
from starkware.python.math_utils import div_mod

value = x_inv = div_mod(1, x, SECP_P))");
        QCOMPARE((f.scopeValue("x_inv") * BigInt(3)).mod(kP), BigInt(1));
    }

    void secp256r1ConstantsComeFromTheirImports() {
        Fixture f({"point"}, {}, {{"point", "EcPoint"}});
        // The P-256 generator (FIPS 186-4); its doubling slope is checked against the formula.
        const BigInt p256 = BigInt::powerOfTwo(256) - BigInt::powerOfTwo(224) +
                            BigInt::powerOfTwo(192) + BigInt::powerOfTwo(96) - BigInt(1);
        const BigInt gx =
            *BigInt::parse("0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296");
        const BigInt gy =
            *BigInt::parse("0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5");
        setBig(f, "point", 0, gx);
        setBig(f, "point", 3, gy);
        f.run(
            "from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_P as SECP_P");
        f.run("from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_ALPHA as "
              "ALPHA");
        f.run(R"(from starkware.cairo.common.cairo_secp.secp_utils import pack
from starkware.python.math_utils import ec_double_slope

# Compute the slope.
x = pack(ids.point.x, PRIME)
y = pack(ids.point.y, PRIME)
value = slope = ec_double_slope(point=(x, y), alpha=ALPHA, p=SECP_P))");
        QCOMPARE(f.scopeValue("slope"),
                 *BigInt::divMod(BigInt(3) * gx * gx + (p256 - BigInt(3)), BigInt(2) * gy, p256));
    }
};

int main(int argc, char** argv) {
    return proofdesk::test::execWithNativeThenPythonHints<CairoSecpHintsTest>(argc, argv);
}
#include "tst_cairo_secp_hints.moc"
