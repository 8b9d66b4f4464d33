"""Felt helpers hint code imports (starkware.cairo.common.math_utils)."""

from starkware.python.math_utils import isqrt  # noqa: F401  (hints import it from here too)


def assert_integer(value):
    """Fails unless value is a field element (an int), not an address."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"Expected integer, found: {value}.")


def as_int(value, prime):
    """The representative of value in (-prime/2, prime/2]."""
    value %= prime
    return value if value < prime // 2 else value - prime


def is_positive(value, prime, rc_bound):
    value = as_int(value, prime)
    if abs(value) >= rc_bound:
        raise ValueError(f"value={value} is out of the valid range.")
    return value > 0
