"""Addresses in Cairo memory (starkware.cairo.lang.vm.relocatable)."""

from proofdesk_hints import MaybeRelocatable, RelocatableValue  # noqa: F401
