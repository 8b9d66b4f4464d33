"""The part of the eth-hash package hint code imports (eth_hash.auto.keccak)."""
