"""Keccak helpers hint code imports (starkware.cairo.common.keccak_utils.keccak_utils)."""

import _proofdesk_vm


def keccak_func(values):
    """Keccak-256 of bytes (the Ethereum hash, not SHA3-256)."""
    return _proofdesk_vm.keccak256(bytes(values))


def keccak_f(state):
    """Keccak-f[1600] of 25 64-bit lanes."""
    return _proofdesk_vm.keccak_f(list(state))
