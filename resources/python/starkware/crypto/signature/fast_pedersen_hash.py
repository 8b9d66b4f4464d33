"""The Pedersen hash of two felts (starkware.crypto.signature.fast_pedersen_hash)."""

import _proofdesk_vm


def pedersen_hash(x, y):
    return _proofdesk_vm.pedersen(x, y)
