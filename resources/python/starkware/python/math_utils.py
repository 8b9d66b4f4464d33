"""Integer and modular arithmetic that hint code imports (starkware.python.math_utils)."""

import math
import random as _random

from _proofdesk_vm import sha256 as _sha256


def safe_div(x, y):
    """x / y, which must divide exactly."""
    if y == 0:
        raise ZeroDivisionError("division by zero")
    if x % y != 0:
        raise ValueError(f"{x} is not divisible by {y}")
    return x // y


def div_ceil(x, y):
    return -((-x) // y)


def div_floor(x, y):
    return x // y


def isqrt(n):
    """The integer square root of n >= 0."""
    if n < 0:
        raise ValueError(f"isqrt of a negative number: {n}")
    return math.isqrt(n)


def igcdex(a, b):
    """(x, y, g) with a*x + b*y = g = gcd(a, b)."""
    x0, y0, x1, y1 = 1, 0, 0, 1
    while b:
        q, a, b = a // b, b, a % b
        x0, x1 = x1, x0 - q * x1
        y0, y1 = y1, y0 - q * y1
    return x0, y0, a


def div_mod(n, m, p):
    """a with m * a = n (mod p); m must be invertible modulo p."""
    x, _, g = igcdex(m % p, p)
    if g != 1:
        raise ValueError(f"{m} has no inverse modulo {p}")
    return (n * x) % p


def is_power_of_2(x):
    return isinstance(x, int) and x > 0 and x & (x - 1) == 0


def next_power_of_2(x):
    return 1 if x <= 1 else 1 << (x - 1).bit_length()


def safe_log2(x):
    if not is_power_of_2(x):
        raise ValueError(f"{x} is not a power of 2")
    return x.bit_length() - 1


def log2_ceil(x):
    if x <= 0:
        raise ValueError("log2 of a non-positive number")
    return (x - 1).bit_length()


def prod(values):
    result = 1
    for value in values:
        result *= value
    return result


def horner_eval(coefs, point, prime):
    result = 0
    for coef in reversed(coefs):
        result = (result * point + coef) % prime
    return result


def is_quad_residue(n, p):
    """Whether n is a square modulo the prime p (0 counts)."""
    n %= p
    return n == 0 or pow(n, (p - 1) // 2, p) == 1


def sqrt(n, p):
    """The smaller square root of n modulo the odd prime p (Tonelli-Shanks)."""
    n %= p
    if n == 0:
        return 0
    if not is_quad_residue(n, p):
        raise ValueError(f"{n} is not a square modulo {p}")
    q, s = p - 1, 0
    while q % 2 == 0:
        q //= 2
        s += 1
    z = 2
    while is_quad_residue(z, p):
        z += 1
    m, c, t, r = s, pow(z, q, p), pow(n, q, p), pow(n, (q + 1) // 2, p)
    while t != 1:
        i, t2 = 0, t
        while t2 != 1:
            t2 = t2 * t2 % p
            i += 1
        b = pow(c, 1 << (m - i - 1), p)
        m, c, t, r = i, b * b % p, t * b * b % p, r * b % p
    return min(r, p - r)


def ec_double_slope(point, alpha, p):
    x, y = point
    if y % p == 0:
        raise ValueError("the tangent at a point with y = 0 is vertical")
    return div_mod(3 * x * x + alpha, 2 * y, p)


def line_slope(point1, point2, p):
    x1, y1 = point1
    x2, y2 = point2
    if (x1 - x2) % p == 0:
        raise ValueError("the line through points with equal x is vertical")
    return div_mod(y1 - y2, x1 - x2, p)


def ec_add(point1, point2, p):
    slope = line_slope(point1, point2, p)
    x = (slope * slope - point1[0] - point2[0]) % p
    return x, (slope * (point1[0] - x) - point1[1]) % p


def ec_neg(point, p):
    return point[0], (-point[1]) % p


def ec_double(point, alpha, p):
    slope = ec_double_slope(point, alpha, p)
    x = (slope * slope - 2 * point[0]) % p
    return x, (slope * (point[0] - x) - point[1]) % p


def ec_mult(m, point, alpha, p):
    """m * point for m >= 1 (double and add)."""
    if m < 1:
        raise ValueError("ec_mult takes m >= 1")
    result = None
    addend = point
    while m:
        if m & 1:
            result = addend if result is None else ec_add(result, addend, p)
        m >>= 1
        if m:
            addend = ec_double(addend, alpha, p)
    return result


class NotOnCurveException(Exception):
    pass


def recover_y(x, alpha, beta, p):
    """The smaller y with y^2 = x^3 + alpha*x + beta (mod p); NotOnCurveException if none."""
    rhs = (pow(x, 3, p) + alpha * x + beta) % p
    if not is_quad_residue(rhs, p):
        raise NotOnCurveException(f"{x} is not the x coordinate of a point on the curve")
    return sqrt(rhs, p)


def random_ec_point(p, alpha, beta, seed=None):
    """A point of y^2 = x^3 + alpha*x + beta (mod p). With a seed (bytes) the point depends only
    on it: s = sha256(seed); candidate i has x = sha256(s[1:] + i as 10 little-endian bytes),
    the first on the curve wins, its y negated when s[0] is odd."""
    if seed is not None:
        if p >= 2**256:
            raise ValueError("a seeded point needs a field prime below 2**256")
        seed = _sha256(seed)
    for i in range(100):
        if seed is None:
            x = _random.randrange(p)
            negate = _random.randrange(2) == 1
        else:
            x = int.from_bytes(_sha256(seed[1:] + i.to_bytes(10, "little")), "big")
            negate = seed[0] & 1 == 1
        try:
            y = recover_y(x, alpha, beta, p)
        except NotOnCurveException:
            continue
        return x % p, (-y) % p if negate else y
    raise ValueError("no point on the curve found in 100 candidates")
