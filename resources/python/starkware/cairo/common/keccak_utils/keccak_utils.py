"""Keccak helpers hint code imports (starkware.cairo.common.keccak_utils.keccak_utils).

As in cairo-lang: keccak_func permutes 25 lanes given as integers; keccak_f permutes a state
given as up to 200 little-endian bytes. Only Keccak-f[1600] (64-bit lanes, 24 rounds) is
provided; the permutation itself is the VM's native one.
"""

import _proofdesk_vm

_LANES = 25
_STATE_BYTES = 200


def _require_keccak_1600(ell, u, alpha, beta, rounds):
    if (ell, u, alpha, beta) != (6, 5, 3, 2) or rounds not in (None, 24):
        raise NotImplementedError("only Keccak-f[1600] (ell=6, u=5, 24 rounds) is provided")


def keccak_func(values, ell=6, u=5, alpha=3, beta=2, rounds=None):
    """Keccak-f[1600] of 25 64-bit lanes, returned as a new list of 25 lanes."""
    _require_keccak_1600(ell, u, alpha, beta, rounds)
    values = [int(value) for value in values]
    if len(values) != _LANES:
        raise ValueError(f"keccak_func takes {_LANES} lanes, got {len(values)}")
    return _proofdesk_vm.keccak_f(values)


def keccak_f(message, ell=6, u=5, alpha=3, beta=2, rounds=None):
    """Keccak-f[1600] of a state of at most 200 bytes (zero padded), as 200 bytes."""
    _require_keccak_1600(ell, u, alpha, beta, rounds)
    message = bytes(message)
    if len(message) > _STATE_BYTES:
        raise ValueError(f"keccak_f takes at most {_STATE_BYTES} bytes, got {len(message)}")
    state = message.ljust(_STATE_BYTES, b"\0")
    lanes = [int.from_bytes(state[8 * i : 8 * i + 8], "little") for i in range(_LANES)]
    return b"".join(lane.to_bytes(8, "little") for lane in keccak_func(lanes))
