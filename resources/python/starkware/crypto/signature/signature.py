"""STARK curve constants and the Pedersen hash (starkware.crypto.signature.signature)."""

import _proofdesk_vm

FIELD_PRIME = 2**251 + 17 * 2**192 + 1
ALPHA = 1
BETA = 0x6F21413EFBE40DE150E596D72F7A8C5609AD26C15C915C1F4CDFCB99CEE9E89
EC_ORDER = 0x800000000000010FFFFFFFFFFFFFFFFB781126DCAE7B2321E66A241ADC64D2F


def pedersen_hash(*elements):
    """H(...H(H(e0, e1), e2)..., en) for two or more elements, as the hint helpers chain it."""
    if len(elements) < 1:
        raise ValueError("pedersen_hash takes at least one element")
    result = elements[0]
    for element in elements[1:]:
        result = _proofdesk_vm.pedersen(result, element)
    return result
