"""The build cache's storage format: plain values, authenticated with a key the cache
directory does not hold (decision 0039; the encoding, decision 0118).

What the cache keeps is one tree of frozen records (msgspec Structs, decision 0129) whose
fields are annotated. `Codec(root)` reads those annotations once and derives how each value
becomes plain data and back: a record becomes the tuple of its fields, an enum member its
value, a container holding either is rebuilt member by member, and a value whose type holds
neither (strings, bytes, numbers and containers of them: nearly all of a cache, by size) is
stored as it is. The plain data is written with `marshal` (format 4), which stores those types
natively, so loading 1,000 tools takes about a fifth of what tagged JSON took (measured in the
decision). The file names no class and no code: the classes rebuilt are the ones the root's
annotations name, through their constructors, and nothing loaded is ever called.

The file is `MAGIC`, a version line (the build the cache belongs to, and this Python's), frames
and the hex HMAC-SHA256 (under the user's cache key) of the magic, the cache's name and
everything after the magic, computed as the frames stream out; it is checked before a byte is
decoded. A frame is an 8-byte length and its bytes: one per field of the root, except that a
dict of records (the tools') is a frame of its size followed by one frame per entry,
and `bytes` (tools.json, 37 MB at 5,000 tools) are written as they are. So only one tool's
record is ever encoded at once. The key comes from `TOOLC_CACHE_KEY` (a CI secret, so a shared
cache works across machines) or else a file of the user's, `$XDG_CONFIG_HOME/toolc/cache.key`
(created 0600): never from the cache directory, so a planted or tampered cache fails the check
and is rebuilt (cache/key.py)."""

from __future__ import annotations

import enum
import hashlib
import hmac
import marshal
import struct
import sys
import types
import typing
from collections.abc import Callable
from typing import Any

import msgspec

MAGIC = b"toolc-cache-4\n"
_FAMILY = b"toolc-cache-"  # an older format of ours: stale, rebuilt without a word
_MARSHAL = 4  # marshal's format, fixed: the default may change with Python
# A cache written by another Python may hold another marshal: it is stale there.
_PLATFORM = f" marshal-{_MARSHAL} py{sys.version_info[0]}.{sys.version_info[1]}".encode()
_LENGTH = struct.Struct(">Q")

# How a value of one annotated type is stored: None when it is stored as it is, else the
# functions that make it plain and rebuild it.
Plan = tuple[Callable[[Any], Any], Callable[[Any], Any]] | None
# The frames of a dict's entries as read, by (field, key); and where a dump may take an entry's
# frame as it was read instead of encoding the entry again (None: encode it).
Frames = dict[tuple[str, str], memoryview]
Reuse = Callable[[str, str, Any], memoryview | None]
_AS_IS = (str, bytes, int, float, bool, type(None))


class CacheRefused(Exception):
    """A cache file that is not ours (or not intact): the reason says which."""


class CacheStale(Exception):
    """A cache file another toolc wrote: rebuilt without a word."""


class Codec:
    """Encodes and decodes values of the record class `root`, as its annotations describe them."""

    def __init__(self, root: type) -> None:
        self.root = root
        self._classes: dict[type, list[tuple[str, Plan]]] = {}
        self._shapes: dict[type, list[frozenset[type] | None]] = {}
        self._layout = self._lay_out(root)

    # -- plans ------------------------------------------------------------------------
    def _lay_out(self, root: type) -> list[tuple[str, Plan, Plan, bool]]:
        """The root's fields in file order: each with its plan, the plan of its entries when
        it is a dict streamed entry by entry, and whether it is bytes written as they are."""
        hints = typing.get_type_hints(root)
        laid = []
        for name, plan in self._class_fields(root):
            tp = hints[name]
            streamed = typing.get_origin(tp) is dict and plan is not None
            entries = self._plan(typing.get_args(tp)[1]) if streamed else None
            laid.append((name, plan, entries, tp is bytes))
        return laid

    def _class_fields(self, cls: type) -> list[tuple[str, Plan]]:
        """Each field's name and plan (a class is planned once, and may contain itself)."""
        if cls not in self._classes:
            self._classes[cls] = fields = []
            self._shapes[cls] = shapes = []
            hints = typing.get_type_hints(cls)
            fields += [(f.name, self._plan(hints[f.name])) for f in msgspec.structs.fields(cls)]
            shapes += [_shape(hints[name]) if plan is None else None for name, plan in fields]
        return self._classes[cls]

    def _plan(self, tp: Any) -> Plan:
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if tp in _AS_IS or origin is typing.Literal:
            return None
        if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
            return self._record(tp)
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return (lambda member: member.value), tp
        if origin in (types.UnionType, typing.Union):
            return self._optional(tp, args)
        if origin in (list, frozenset) or (origin is tuple and args[1:] == (...,)):
            return self._sequence(origin, self._plan(args[0]))
        if origin is tuple:
            return self._row([self._plan(arg) for arg in args])
        if origin is dict and args[0] is str:
            return self._mapping(self._plan(args[1]))
        raise TypeError(f"the build cache cannot store a {tp}")

    def _record(self, cls: type) -> Plan:
        # Filled in place: a class that holds itself sees its own list, complete once used.
        known = self._class_fields(cls)
        shapes = self._shapes[cls]

        def encode(value: Any) -> tuple[Any, ...]:
            if type(value) is not cls:
                raise TypeError(f"the build cache cannot store a {type(value).__name__}")
            return tuple([
                getattr(value, name) if plan is None else plan[0](getattr(value, name))
                for name, plan in known
            ])  # fmt: skip

        def decode(plain: Any) -> Any:
            if type(plain) is not tuple or len(plain) != len(known):
                raise ValueError("a record of another shape")
            _check_shapes(plain, shapes)
            pairs = zip(plain, known, strict=True)
            return cls(*[v if p is None else p[1](v) for v, (_, p) in pairs])

        return encode, decode

    def _optional(self, tp: Any, args: tuple[Any, ...]) -> Plan:
        plans = [self._plan(arg) for arg in args if arg is not type(None)]
        if all(plan is None for plan in plans):
            return None
        if len(plans) != 1:  # which class a value is could not be told from its form
            raise TypeError(f"the build cache cannot store a {tp}")
        plan = plans[0]
        assert plan is not None
        encode, decode = plan
        return (lambda v: None if v is None else encode(v)), (
            lambda v: None if v is None else decode(v)
        )

    @staticmethod
    def _sequence(kind: Any, plan: Plan) -> Plan:
        if plan is None:
            return None
        encode, decode = plan
        rebuild = list if kind is list else kind
        return (lambda vs: kind([encode(v) for v in vs])), (
            lambda vs: rebuild([decode(v) for v in vs])
        )

    @staticmethod
    def _row(plans: list[Plan]) -> Plan:
        if all(plan is None for plan in plans):
            return None

        def encode(row: tuple[Any, ...]) -> tuple[Any, ...]:
            return tuple([v if p is None else p[0](v) for v, p in zip(row, plans, strict=True)])

        def decode(row: Any) -> tuple[Any, ...]:
            if type(row) is not tuple or len(row) != len(plans):
                raise ValueError("a row of another shape")
            return tuple([v if p is None else p[1](v) for v, p in zip(row, plans, strict=True)])

        return encode, decode

    @staticmethod
    def _mapping(plan: Plan) -> Plan:
        if plan is None:
            return None
        encode, decode = plan
        return (lambda d: {k: encode(v) for k, v in d.items()}), (
            lambda d: {k: decode(v) for k, v in d.items()}
        )

    # -- files --------------------------------------------------------------------------
    def dump(
        self,
        value: Any,
        key: bytes,
        bound: str,
        write: Callable[[bytes | memoryview], object],
        version: bytes = b"",
        reuse: Reuse | None = None,
        written: Frames | None = None,
        last: tuple[str, Callable[[], Any]] | None = None,
    ) -> None:
        """Write the file through `write`, frame by frame: the encoded form of a whole cache
        (thousands of tools) is never held at once, only one record of it. `reuse` may hand
        back the frame an entry was decoded from (`loads` with `frames`): it is written as it
        is, which for an unchanged record is what encoding it gives. `written`, when given,
        receives each streamed entry's frame, as `loads`' `frames` would on reading it.
        `last`, when given, names the root's last field and a function called for its value
        when its turn comes, instead of reading it from `value`: a value known only later
        (what it raises, raised here). Any other field named is a TypeError."""
        if type(value) is not self.root:
            raise TypeError(f"the build cache cannot store a {type(value).__name__}")
        final = self._layout[-1][0]
        if last is not None and last[0] != final:  # before a byte is written
            raise TypeError(f"{last[0]!r} is not the last field of the build cache")
        mac = hmac.new(key, MAGIC + bound.encode() + b"\0", hashlib.sha256)

        def out(chunk: bytes | memoryview) -> None:
            mac.update(_LENGTH.pack(len(chunk)))
            mac.update(chunk)
            write(_LENGTH.pack(len(chunk)))
            write(chunk)

        write(MAGIC)
        line = version + _PLATFORM + b"\n"  # read first: a cache of another toolc is stale
        mac.update(line)
        write(line)
        for name, plan, entries, raw in self._layout:
            field = last[1]() if last is not None and name == final else getattr(value, name)
            if entries is not None:
                out(marshal.dumps(len(field), _MARSHAL))
                for k, v in field.items():
                    read = reuse(name, k, v) if reuse is not None else None
                    chunk: bytes | memoryview = (
                        read if read is not None else marshal.dumps((k, entries[0](v)), _MARSHAL)
                    )
                    out(chunk)
                    if written is not None:
                        written[(name, k)] = memoryview(chunk)
            elif raw:
                out(field)
            else:
                out(marshal.dumps(field if plan is None else plan[0](field), _MARSHAL))
        write(b"\n" + mac.hexdigest().encode() + b"\n")

    def dumps(
        self, value: Any, key: bytes, bound: str, version: bytes = b"", reuse: Reuse | None = None
    ) -> bytes:
        chunks: list[bytes | memoryview] = []
        self.dump(value, key, bound, chunks.append, version, reuse)
        return b"".join(chunks)

    def loads(
        self,
        data: bytes,
        key: bytes,
        bound: str,
        version: bytes = b"",
        frames: Frames | None = None,
        signed: bytes | None = None,
    ) -> Any:
        """The value in `data`. The MAC is checked first: a file of this format without the
        key is refused with a reason, and only an authentic cache of another toolc or Python
        is stale. A file of an older format of ours is stale either way (it is never used).
        `frames`, when given, receives each streamed entry's frame (views of `data`).
        `signed`: what `signature(data, key, bound)` returned, when it was computed ahead."""
        magic = _magic(data)
        if not magic:
            raise CacheRefused("is not a toolc build cache of this format")
        end = len(data) - 66  # "\n" + 64 hex digits + "\n"
        expected = signature(data, key, bound) if signed is None else signed
        if (
            end < len(magic)
            or data[end : end + 1] != b"\n"
            or not data.endswith(b"\n")
            or not hmac.compare_digest(data[end + 1 : -1], expected)
        ):
            if magic != MAGIC:  # an older format, which may sign otherwise (an early one put
                raise CacheStale  # the tag first): not used either way, so no word
            raise CacheRefused("was not written by you for this build (its key does not match)")
        line = version + _PLATFORM + b"\n"
        if magic != MAGIC or not data.startswith(line, len(MAGIC)):
            raise CacheStale  # written by another toolc or Python, its classes maybe others
        if end < len(MAGIC) + len(line):
            raise CacheRefused("is damaged (no end to its version line)")
        try:
            return self._decode(memoryview(data)[len(MAGIC) + len(line) : end], frames)
        except Exception as exc:  # MemoryError and RecursionError too: the file is
            # authentic, so only its key holder's mistake or malice gets here
            raise CacheRefused(f"is damaged ({type(exc).__name__})") from exc

    def _decode(self, body: memoryview, frames: Frames | None) -> Any:
        at = 0

        def frame() -> memoryview:
            nonlocal at
            if at + 8 > len(body):
                raise ValueError("a frame past its end")
            (size,) = _LENGTH.unpack_from(body, at)
            if at + 8 + size > len(body):
                raise ValueError("a frame past its end")
            at += 8 + size
            return body[at - size : at]

        values: list[Any] = []
        for name, plan, entries, raw in self._layout:
            if entries is not None:
                count = marshal.loads(frame())
                if type(count) is not int:
                    raise ValueError("a count that is not one")
                decode = entries[1]
                found = {}
                for _ in range(count):
                    read = frame()
                    k, v = marshal.loads(read)
                    if type(k) is not str:
                        raise ValueError("a key that is not a name")
                    found[k] = decode(v)
                    if frames is not None:
                        frames[(name, k)] = read
                values.append(found)
            elif raw:
                values.append(bytes(frame()))
            else:
                plain = marshal.loads(frame())
                values.append(plain if plan is None else plan[1](plain))
        if at != len(body):
            raise ValueError("data after its last frame")
        _check_shapes(values, self._shapes[self.root])
        return self.root(*values)


def signature(data: bytes, key: bytes, bound: str) -> bytes:
    """The MAC a cache file `data` must end with (hex), under `key`, for the file `bound`:
    of its magic line, `bound` and everything between the magic and the MAC. Apart from
    `loads`, so that it can be computed ahead, in another thread (cache.prefetch)."""
    magic = _magic(data)
    end = len(data) - 66  # "\n" + 64 hex digits + "\n"
    expected = hmac.new(key, magic + bound.encode() + b"\0", hashlib.sha256)
    expected.update(memoryview(data)[len(magic) : max(end, len(magic))])
    return expected.hexdigest().encode()


def _magic(data: bytes) -> bytes:
    """The file's first line when it is one of our formats' (this one or an older); else empty."""
    return data[: data.find(b"\n") + 1] if data.startswith(_FAMILY) else b""


def _shape(tp: Any) -> frozenset[type] | None:
    """The types a value stored as it is may have at its top (its members are not looked
    at: that would cost the walk this format saves); None when that is not known."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is float:
        return frozenset({float, int})
    if tp in _AS_IS:
        return frozenset({tp})
    if origin is typing.Literal:
        return frozenset(type(arg) for arg in args)
    if origin in (types.UnionType, typing.Union):
        members = [_shape(arg) for arg in args]
        return None if None in members else frozenset().union(*members)  # type: ignore[arg-type]
    if origin in (list, dict, tuple, frozenset):
        return frozenset({origin})
    return None


def _check_shapes(values: Any, shapes: list[frozenset[type] | None]) -> None:
    """A value of another type at the top of a field refuses the file as damaged, so the
    checks after loading see the types they expect (a well-signed file, still)."""
    for value, shape in zip(values, shapes, strict=True):
        if shape is not None and type(value) not in shape:
            raise ValueError(f"a {type(value).__name__} where its field holds another type")
