"""Hashes of the STARK field, computed by Proofdesk's own C++ code."""

import _proofdesk_vm


def pedersen_hash(x, y):
    return _proofdesk_vm.pedersen(x, y)


def poseidon_hash(x, y):
    return _proofdesk_vm.poseidon_perm([x, y, 2])[0]


def poseidon_hash_single(x):
    return _proofdesk_vm.poseidon_perm([x, 0, 1])[0]


def poseidon_hash_many(values):
    return _proofdesk_vm.poseidon_hash_many(list(values))


def poseidon_perm(x, y, z):
    return _proofdesk_vm.poseidon_perm([x, y, z])
