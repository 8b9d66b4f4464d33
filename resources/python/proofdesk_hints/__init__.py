"""The scope a Cairo 0 hint runs in: ids, memory, segments, registers, execution scopes.

Proofdesk's VM runs hints it knows natively; every other hint runs here, in an embedded CPython,
with the names cairo-lang's runner gives hint code. The VM itself stays in C++: `_proofdesk_vm`
reads and writes its memory, resolves references and owns the scope stack, so native and Python
hints of one run share them.
"""

import linecache
import traceback

import _proofdesk_vm as _vm

PRIME = 2**251 + 17 * 2**192 + 1

__all__ = ["RelocatableValue", "Session", "PRIME"]


class RelocatableValue:
    """An address: a segment index (negative for temporary segments) and an offset."""

    __slots__ = ("segment_index", "offset")

    def __init__(self, segment_index, offset):
        if not isinstance(segment_index, int) or not isinstance(offset, int):
            raise TypeError("segment_index and offset are integers")
        if offset < 0:
            raise ValueError(f"negative offset {offset} in segment {segment_index}")
        object.__setattr__(self, "segment_index", segment_index)
        object.__setattr__(self, "offset", offset)

    def __setattr__(self, name, value):
        raise AttributeError("RelocatableValue is immutable")

    def __add__(self, other):
        if isinstance(other, int):
            return RelocatableValue(self.segment_index, _signed_offset(self.offset + other))
        if isinstance(other, RelocatableValue):
            raise TypeError("cannot add two addresses")
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, int):
            return RelocatableValue(self.segment_index, _signed_offset(self.offset - other))
        if isinstance(other, RelocatableValue):
            if other.segment_index != self.segment_index:
                raise ValueError(f"cannot subtract {other} from {self}: different segments")
            return self.offset - other.offset
        return NotImplemented

    def __mod__(self, other):
        # Values are reduced modulo the prime when written; an address is left as it is.
        return self

    def _key(self):
        return (self.segment_index, self.offset)

    def __eq__(self, other):
        return isinstance(other, RelocatableValue) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._key())

    def _comparable(self, other):
        if not isinstance(other, RelocatableValue):
            raise TypeError(f"cannot compare an address with {type(other).__name__}")
        return other._key()

    def __lt__(self, other):
        return self._key() < self._comparable(other)

    def __le__(self, other):
        return self._key() <= self._comparable(other)

    def __gt__(self, other):
        return self._key() > self._comparable(other)

    def __ge__(self, other):
        return self._key() >= self._comparable(other)

    def __repr__(self):
        return f"{self.segment_index}:{self.offset}"

    __str__ = __repr__

    def to_tuple(self):
        return self._key()

    @classmethod
    def from_tuple(cls, value):
        return cls(*value)


MaybeRelocatable = (int, RelocatableValue)


def _signed_offset(offset):
    offset %= PRIME
    if offset > PRIME // 2:
        offset -= PRIME
    return offset


def _raw(value):
    """A value as `_proofdesk_vm` takes it: an int reduced modulo PRIME, or (segment, offset)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value % PRIME
    if isinstance(value, RelocatableValue):
        return (value.segment_index, value.offset)
    raise TypeError(f"a memory value is an int or an address, not {type(value).__name__}")


def _cooked(raw):
    if isinstance(raw, tuple):
        return RelocatableValue(raw[0], raw[1])
    return raw


def _address(addr):
    if not isinstance(addr, RelocatableValue):
        raise TypeError(f"memory is addressed by RelocatableValue, not {addr!r}")
    return addr


def to_felt_or_relocatable(value):
    if isinstance(value, RelocatableValue):
        return value
    return int(value) % PRIME


class Memory:
    """The VM's write-once memory, as `memory` in hints."""

    def __getitem__(self, addr):
        addr = _address(addr)
        raw = _vm.mem_get(addr.segment_index, addr.offset)
        if raw is None:
            raise KeyError(f"Unknown value for memory cell at address {addr}.")
        return _cooked(raw)

    def get(self, addr, default=None):
        addr = _address(addr)
        raw = _vm.mem_get(addr.segment_index, addr.offset)
        return default if raw is None else _cooked(raw)

    def __contains__(self, addr):
        return isinstance(addr, RelocatableValue) and (
            _vm.mem_get(addr.segment_index, addr.offset) is not None
        )

    def __setitem__(self, addr, value):
        addr = _address(addr)
        _vm.mem_set(addr.segment_index, addr.offset, _raw(value))

    def get_range(self, addr, size):
        addr = _address(addr)
        return [self[addr + i] for i in range(size)]

    def get_range_as_ints(self, addr, size):
        values = self.get_range(addr, size)
        for value in values:
            if not isinstance(value, int):
                raise TypeError(f"expected integers in memory from {addr}, found {value}")
        return values

    def add_relocation_rule(self, src_ptr, dest_ptr):
        src_ptr, dest_ptr = _address(src_ptr), _address(dest_ptr)
        _vm.add_relocation_rule(
            src_ptr.segment_index, src_ptr.offset, dest_ptr.segment_index, dest_ptr.offset
        )


class Segments:
    """`segments` in hints: new segments and writing Python values into memory."""

    def __init__(self, memory):
        self.memory = memory

    def add(self, size=None):
        return _cooked(_vm.add_segment())

    def add_temp_segment(self):
        return _cooked(_vm.add_temp_segment())

    def gen_arg(self, arg, apply_modulo_to_args=True):
        if isinstance(arg, (list, tuple)):
            base = self.add()
            self.write_arg(base, arg, apply_modulo_to_args)
            return base
        if isinstance(arg, RelocatableValue):
            return arg
        if isinstance(arg, int):
            return arg % PRIME if apply_modulo_to_args else arg
        raise TypeError(f"cannot write {type(arg).__name__} into Cairo memory")

    def write_arg(self, ptr, arg, apply_modulo_to_args=True):
        ptr = _address(ptr)
        values = [self.gen_arg(item, apply_modulo_to_args) for item in arg]
        for i, value in enumerate(values):
            self.memory[ptr + i] = value
        return ptr + len(values)

    def get_segment_used_size(self, segment_index):
        return _vm.segment_used_size(segment_index)

    def load_data(self, ptr, data):
        return self.write_arg(ptr, data)


class BuiltinRunner:
    """`<name>_builtin` in hints: the builtin's base and what hints use of it."""

    def __init__(self, name, base):
        self.name = name
        self.base = None if base is None else _cooked(base)
        if name == "range_check":
            self.bound = 2**128
        elif name == "range_check96":
            self.bound = 2**96

    def add_signature(self, addr, signature):
        addr = _address(addr)
        r, s = signature
        _vm.add_signature(addr.segment_index, addr.offset, _raw(r), _raw(s))


def _is_simple(cairo_type):
    """felt, felt*, T** and types that are not structs give plain values (cairo-lang's rule)."""
    if cairo_type == "felt":
        return True
    if cairo_type.endswith("*"):
        pointee = cairo_type[:-1]
        return pointee == "felt" or pointee.endswith("*") or _vm.struct_def(pointee) is None
    return _vm.struct_def(cairo_type) is None


class StructDefinition:
    """ids.<Struct>: its SIZE and its members' offsets."""

    def __init__(self, full_name):
        object.__setattr__(self, "_full_name", full_name)
        object.__setattr__(self, "_def", _vm.struct_def(full_name))

    def __getattr__(self, name):
        size, members = self._def
        if name == "SIZE":
            return size
        if name in members:
            return members[name][0]
        raise AttributeError(f"'{name}' is not a member of '{self._full_name}'.")

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot change {self._full_name}.{name}: it is a struct definition")


class TypedReference:
    """A value of struct type T (or T*): `address_` is where the struct is; members by name."""

    def __init__(self, struct_name, address):
        object.__setattr__(self, "_struct_name", struct_name)
        object.__setattr__(self, "address_", address)

    @property
    def type_(self):
        return StructDefinition(self._struct_name)

    def _member(self, name):
        definition = _vm.struct_def(self._struct_name)
        if definition is None or name not in definition[1]:
            raise AttributeError(f"'{name}' is not a member of '{self._struct_name}'.")
        offset, cairo_type = definition[1][name]
        if not isinstance(self.address_, RelocatableValue):
            raise TypeError(f"{self._struct_name} pointer {self.address_!r} is not an address")
        return self.address_ + offset, cairo_type

    def __getattr__(self, name):
        addr, cairo_type = self._member(name)
        if _is_simple(cairo_type):
            return MEMORY[addr]
        if cairo_type.endswith("*"):
            return TypedReference(cairo_type[:-1], MEMORY[addr])
        return TypedReference(cairo_type, addr)

    def __setattr__(self, name, value):
        addr, _ = self._member(name)
        MEMORY[addr] = value

    def __repr__(self):
        return f"<{self._struct_name} at {self.address_}>"


class Namespace:
    """ids.<namespace>: constants, structs and functions under it."""

    def __init__(self, full_name):
        object.__setattr__(self, "_full_name", full_name)

    def __getattr__(self, name):
        return _identifier(self._full_name + "." + name, name, absolute=True)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to {self._full_name}.{name}")


def _identifier(path, name, absolute=False):
    found = _vm.ids_lookup(path, absolute)
    if found is None:
        raise AttributeError(f"ids.{name}: no reference, constant or struct of that name is "
                             "visible to this hint")
    kind = found[0]
    if kind == "ref":
        _, cairo_type, value, cell = found
        if _is_simple(cairo_type):
            if value is None:
                raise KeyError(f"ids.{name}: unknown value for memory cell at {_cooked(cell)}")
            return _cooked(value)
        if cairo_type.endswith("*"):
            if value is None:
                raise KeyError(f"ids.{name}: unknown value for memory cell at {_cooked(cell)}")
            return TypedReference(cairo_type[:-1], _cooked(value))
        if cell is None:
            raise ValueError(f"ids.{name} of type {cairo_type} has no address")
        return TypedReference(cairo_type, _cooked(cell))
    if kind == "const":
        return found[1]
    if kind == "struct":
        return StructDefinition(found[1])
    if kind == "label":
        return found[2]
    return Namespace(found[1])


class Ids:
    """`ids`: the hint's references, constants and structs (cairo-lang's VmConsts)."""

    def __getattr__(self, name):
        return _identifier(name, name)

    def __setattr__(self, name, value):
        _vm.ids_set(name, _raw(value))


MEMORY = Memory()
SEGMENTS = Segments(MEMORY)
IDS = Ids()

# Names the runner sets in the scope; they are not copied back to native scope variables.
_RUNNER_NAMES = frozenset(
    ["ap", "fp", "pc", "PRIME", "current_step", "memory", "segments", "ids", "program_input",
     "vm_enter_scope", "vm_exit_scope", "to_felt_or_relocatable", "vm_load_program"]
)


def _vm_load_program(*args, **kwargs):
    raise NotImplementedError(
        "vm_load_program is not available to Python hints in Proofdesk: the bootloader's own "
        "hints load tasks natively")


class Session:
    """One run's Python side: compiled hint code and the scope dictionaries."""

    def __init__(self, program_input, builtins):
        self._codes = []
        self._scopes = []  # [native scope id, dict], innermost last
        self._program_input = program_input
        self._builtins = {f"{name}_builtin": BuiltinRunner(name, base) for name, base in builtins}
        # Library hints compare with range_check_builtin.bound even where the layout has no
        # range check (the bound is a constant of the VM).
        self._builtins.setdefault("range_check_builtin", BuiltinRunner("range_check", None))

    def compile(self, code, pc):
        filename = f"<hint at pc {pc}>"
        compiled = compile(code, filename, "exec", dont_inherit=True)
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        self._codes.append(compiled)
        return len(self._codes) - 1

    def _enter_scope(self, new_scope_locals=None):
        new_scope = dict(new_scope_locals or {})
        felts = {
            k: v % PRIME
            for k, v in new_scope.items()
            if isinstance(k, str) and type(v) is int
        }
        self._scopes.append([_vm.enter_scope(felts), new_scope])

    def _exit_scope(self):
        _vm.exit_scope()
        self._scopes.pop()

    def _align(self, native_ids):
        keep = 0
        while (keep < len(self._scopes) and keep < len(native_ids)
               and self._scopes[keep][0] == native_ids[keep]):
            keep += 1
        del self._scopes[keep:]
        for level in native_ids[keep:]:
            scope = {"program_input": self._program_input} if level == native_ids[0] else {}
            self._scopes.append([level, scope])

    def run(self, index, native_ids, native_felts, pc, ap, fp, step, scope_input=None):
        """Runs one hint. Returns (None, ints to copy back) or (traceback text, None).

        scope_input: the program_input of the innermost scope when a native hint set one there
        (a bootloader task's own input), else None.
        """
        self._align(native_ids)
        scope = self._scopes[-1][1]
        if scope_input is not None and "program_input" not in scope:
            scope["program_input"] = scope_input
        for name, value in native_felts.items():
            current = scope.get(name)
            if not (type(current) is int and current % PRIME == value):
                scope[name] = value
        scope.update(self._builtins)
        scope.update(
            memory=MEMORY, segments=SEGMENTS, ids=IDS, PRIME=PRIME,
            pc=_cooked(pc), ap=_cooked(ap), fp=_cooked(fp), current_step=step,
            vm_enter_scope=self._enter_scope, vm_exit_scope=self._exit_scope,
            to_felt_or_relocatable=to_felt_or_relocatable, vm_load_program=_vm_load_program,
        )
        try:
            exec(self._codes[index], scope)
        except BaseException as error:  # the hint's own failure, reported with its traceback
            tb = error.__traceback__.tb_next if error.__traceback__ else None
            return "".join(traceback.format_exception(type(error), error, tb)), None
        finally:
            scope.pop("ids", None)
            scope.pop("memory", None)
        ints = {
            k: v % PRIME
            for k, v in scope.items()
            if type(v) is int and k not in _RUNNER_NAMES and not k.startswith("__")
        }
        return None, ints
