"""starkware.cairo.common.cairo_keccak.keccak_utils: the same helpers as keccak_utils."""

from starkware.cairo.common.keccak_utils.keccak_utils import keccak_f, keccak_func  # noqa: F401
