"""BLAKE2s helpers hint code imports (starkware.cairo.common.cairo_blake2s.blake2s_utils)."""

import _proofdesk_vm

IV = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
    0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
]


def blake2s_compress(h, t0, t1, f0, f1, message):
    """The BLAKE2s compression function: the new 8-word state."""
    return _proofdesk_vm.blake2s_compress(list(h), list(message), [t0, t1, f0, f1])


def compute_blake2s_func(segments, output_ptr):
    """Fills the 8 output words of a blake2s_compress call whose inputs precede output_ptr.

    The 26 cells before output_ptr hold h (8), the message (16), t0 and f0.
    """
    memory = segments.memory
    h = memory.get_range(output_ptr - 26, 8)
    message = memory.get_range(output_ptr - 18, 16)
    t = memory[output_ptr - 2]
    f = memory[output_ptr - 1]
    new_state = blake2s_compress(h, t, 0, f, 0, message)
    segments.write_arg(output_ptr, new_state)
