"""Small helpers hint code imports (starkware.python.utils)."""


def to_bytes(value, length=None, byte_order="big", signed=None):
    if length is None:
        length = 32
    return int(value).to_bytes(length, byte_order, signed=bool(signed))


def from_bytes(value, byte_order="big", signed=None):
    return int.from_bytes(value, byte_order, signed=bool(signed))


def safe_zip(*iterables):
    lists = [list(items) for items in iterables]
    if len({len(items) for items in lists}) > 1:
        raise ValueError("safe_zip: iterables of different lengths")
    return zip(*lists)


def blockify(data, chunk_size):
    return [data[i : i + chunk_size] for i in range(0, len(data), chunk_size)]


def as_non_optional(value):
    if value is None:
        raise ValueError("unexpected None")
    return value
