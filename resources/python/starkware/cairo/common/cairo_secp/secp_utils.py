"""secp256k1 helpers hint code imports (starkware.cairo.common.cairo_secp.secp_utils).

Big integers are BigInt3: three limbs of 86 bits, each limb a felt that may be negative.
"""

from starkware.cairo.common.math_utils import as_int

BASE = 2**86
SECP_P = 2**256 - 2**32 - 977
SECP_REM = 2**32 + 977
N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
ALPHA = 0
BETA = 7


def split(num):
    """num (0 <= num < 2**258) as three 86-bit limbs."""
    limbs = []
    for _ in range(3):
        num, residue = divmod(num, BASE)
        limbs.append(residue)
    if num != 0:
        raise ValueError("the number does not fit in three 86-bit limbs")
    return limbs


def pack(z, prime):
    """The integer a BigInt3 (d0, d1, d2) denotes, each limb read as a signed felt."""
    limbs = z.d0, z.d1, z.d2
    return sum(as_int(limb, prime) * BASE**i for i, limb in enumerate(limbs))


def bigint_split(x, base, n):
    limbs = []
    for _ in range(n):
        x, residue = divmod(x, base)
        limbs.append(residue)
    if x != 0:
        raise ValueError(f"the number does not fit in {n} limbs of base {base}")
    return limbs
