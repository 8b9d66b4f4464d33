"""eth_hash.auto: keccak(data) is the Keccak-256 digest (Ethereum's, not SHA3-256) of bytes."""

import _proofdesk_vm


class _Keccak256:
    def __call__(self, data):
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"keccak() takes bytes, not {type(data).__name__}")
        return _proofdesk_vm.keccak256(bytes(data))


keccak = _Keccak256()
