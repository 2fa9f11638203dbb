"""The build cache's storage format: data that cannot execute, authenticated with a key the
cache directory does not hold.

What the cache keeps is a tree of frozen dataclasses, tuples, frozensets, bytes and dicts. It is
written as JSON (orjson) in which each such value is tagged: `{"$c": name, "v": [fields]}` for a
dataclass of the registered set (nothing else can be built; a name outside it is a corrupt
cache), `{"$t": [...]}` a tuple, `{"$f": [...]}` a frozenset, `{"$u": text}` / `{"$b": base64}`
bytes, `{"$d": {...}}` a dict, `{"$e": name, "v": value}` an enum member, and
`{"$r": [start, length]}` a large byte string stored raw after the JSON. Loading runs no code
the file names: it only calls the constructors of the registered classes with plain values.

The file is `MAGIC`, the JSON, a newline, and the hex HMAC-SHA256 (under the user's cache key)
of the magic, the build the cache belongs to and the JSON, computed as the JSON streams out. The
key comes from `TOOLC_CACHE_KEY` (a CI secret, so a shared cache works across machines) or else
a file of the user's, `$XDG_CONFIG_HOME/toolc/cache.key` (created 0600): never from the cache
directory, so a planted or tampered cache fails the check and is rebuilt (cache/key.py)."""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import hmac
from collections.abc import Callable, Mapping
from typing import Any

import orjson

MAGIC = b"toolc-cache-2\n"
_RAW = 1 << 20  # byte strings at least this long are stored raw, after the JSON


class CacheRefused(Exception):
    """A cache file that is not ours (or not intact): the reason says which."""


class CacheStale(Exception):
    """A cache file another toolc wrote: rebuilt without a word."""


class Codec:
    """Encodes and decodes the registered dataclasses and enums (by class name)."""

    def __init__(self, classes: list[type]) -> None:
        self.classes = {cls.__name__: cls for cls in classes}
        self.fields = {
            cls.__name__: [f.name for f in dataclasses.fields(cls)]
            for cls in classes
            if dataclasses.is_dataclass(cls)
        }

    # -- encoding -----------------------------------------------------------------------
    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, bool | int | float | str):
            return value
        if isinstance(value, bytes):
            try:
                return {"$u": value.decode("utf-8")}
            except UnicodeDecodeError:
                return {"$b": base64.b64encode(value).decode("ascii")}
        if isinstance(value, list):
            return [self.encode(v) for v in value]
        if isinstance(value, tuple):
            return {"$t": [self.encode(v) for v in value]}
        if isinstance(value, frozenset):
            return {"$f": sorted((self.encode(v) for v in value), key=repr)}
        if isinstance(value, Mapping):
            return {"$d": {str(k): self.encode(v) for k, v in value.items()}}
        if isinstance(value, enum.Enum):
            return {"$e": type(value).__name__, "v": value.value}
        name = type(value).__name__
        if name not in self.fields or self.classes[name] is not type(value):
            raise TypeError(f"the build cache cannot store a {name}")
        return {"$c": name, "v": [self.encode(getattr(value, f)) for f in self.fields[name]]}

    def dump(
        self,
        value: Any,
        key: bytes,
        bound: str,
        write: Callable[[bytes], object],
        version: bytes = b"",
    ) -> None:
        """Write the file through `write`, chunk by chunk: the encoded form of a whole cache
        (thousands of tools) is never held at once, only one unit of it; a large byte string
        (tools.json, 37 MB at 5,000 tools) goes after the JSON as it is, never copied."""
        mac = hmac.new(key, MAGIC + bound.encode() + b"\0", hashlib.sha256)

        def out(chunk: bytes) -> None:
            mac.update(chunk)
            write(chunk)

        blobs: list[bytes] = []
        write(MAGIC)
        out(version + b"\n")  # read before anything else: a cache of another toolc is stale
        self._stream(value, out, 0, blobs)
        out(b"\n")
        for blob in blobs:
            out(blob)
        write(b"\n" + mac.hexdigest().encode() + b"\n")

    def dumps(self, value: Any, key: bytes, bound: str, version: bytes = b"") -> bytes:
        chunks: list[bytes] = []
        self.dump(value, key, bound, chunks.append, version)
        return b"".join(chunks)

    def _stream(
        self, value: Any, out: Callable[[bytes], None], depth: int, blobs: list[bytes]
    ) -> None:
        """`orjson.dumps(self.encode(value))`, the outer two levels of dataclasses and dicts
        written member by member, large byte strings as references into the raw region."""
        name = type(value).__name__
        if isinstance(value, bytes) and len(value) >= _RAW:
            start = sum(map(len, blobs))
            blobs.append(value)
            out(b'{"$r":[' + str(start).encode() + b"," + str(len(value)).encode() + b"]}")
        elif depth < 2 and name in self.fields and self.classes[name] is type(value):
            out(b'{"$c":' + orjson.dumps(name) + b',"v":[')
            for i, field in enumerate(self.fields[name]):
                out(b"," if i else b"")
                self._stream(getattr(value, field), out, depth + 1, blobs)
            out(b"]}")
        elif depth < 2 and isinstance(value, dict):
            out(b'{"$d":{')
            for i, (k, v) in enumerate(value.items()):
                out((b"," if i else b"") + orjson.dumps(str(k)) + b":")
                self._stream(v, out, depth + 1, blobs)
            out(b"}}")
        else:
            out(orjson.dumps(self.encode(value)))

    # -- decoding -----------------------------------------------------------------------
    def decode(self, node: Any, raw: bytes = b"") -> Any:
        """The value `node` (parsed JSON) encodes. Hot: one call per stored value."""
        if type(node) is list:
            return [self.decode(v, raw) for v in node]
        if type(node) is not dict:
            return node
        cls_name = node.get("$c")
        if cls_name is not None and len(node) == 2:
            cls = self.classes.get(cls_name) if cls_name in self.fields else None
            if cls is None:
                raise CacheRefused(f"names a class it may not build: {cls_name!r}")
            return cls(*[self.decode(v, raw) for v in node["v"]])
        if len(node) == 1:
            tag, inner = next(iter(node.items()))
            if tag == "$u":
                return inner.encode("utf-8")
            if tag == "$d":
                return {k: self.decode(v, raw) for k, v in inner.items()}
            if tag == "$t":
                return tuple([self.decode(v, raw) for v in inner])
            if tag == "$f":
                return frozenset([self.decode(v, raw) for v in inner])
            if tag == "$r":
                start, length = int(inner[0]), int(inner[1])
                if not 0 <= start <= start + length <= len(raw):
                    raise CacheRefused("refers past its own end")
                return raw[start : start + length]
            if tag == "$b":
                return base64.b64decode(inner)
        if "$e" in node and len(node) == 2:
            cls = self.classes.get(node["$e"])
            if cls is None or not issubclass(cls, enum.Enum):
                raise CacheRefused(f"names an enum it may not build: {node['$e']!r}")
            return cls(node["v"])
        raise CacheRefused("holds a value of no known form")

    def loads(self, data: bytes, key: bytes, bound: str, version: bytes = b"") -> Any:
        if not data.startswith(MAGIC) or not data.endswith(b"\n"):
            raise CacheRefused("is not a toolc build cache of this format")
        if not data.startswith(version + b"\n", len(MAGIC)):
            raise CacheStale  # written by another toolc, its classes maybe other ones
        end = len(data) - 66  # "\n" + 64 hex digits + "\n"
        expected = hmac.new(key, MAGIC + bound.encode() + b"\0", hashlib.sha256)
        expected.update(memoryview(data)[len(MAGIC) : end])
        if end < len(MAGIC) or not hmac.compare_digest(
            data[end + 1 : -1], expected.hexdigest().encode()
        ):
            raise CacheRefused("was not written by you for this build (its key does not match)")
        start = len(MAGIC) + len(version) + 1
        split = data.find(b"\n", start, end)
        if split < 0:
            raise CacheRefused("is damaged (no end to its data)")
        try:
            return self.decode(orjson.loads(data[start:split]), data[split + 1 : end])
        except (TypeError, ValueError, KeyError, orjson.JSONDecodeError) as exc:
            raise CacheRefused(f"is damaged ({type(exc).__name__})") from exc
