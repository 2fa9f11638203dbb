"""The build cache's storage format: data that cannot execute, authenticated with a key the
cache directory does not hold.

What the cache keeps is a tree of frozen dataclasses, tuples, frozensets, bytes and dicts. It is
written as JSON (orjson) in which each such value is tagged: `{"$c": name, "v": [fields]}` for a
dataclass of the registered set (nothing else can be built; a name outside it is a corrupt
cache), `{"$t": [...]}` a tuple, `{"$f": [...]}` a frozenset, `{"$u": text}` / `{"$b": base64}`
bytes, `{"$d": {...}}` a dict, `{"$e": name, "v": value}` an enum member. Loading runs no code the
file names: it only calls the constructors of the registered classes with plain values.

The file is `MAGIC`, the hex HMAC-SHA256 of what follows under the user's cache key, a newline,
and the JSON. The key comes from `TOOLC_CACHE_KEY` (a CI secret, so a shared cache works across
machines) or else a file of the user's, `$XDG_CONFIG_HOME/toolc/cache.key` (created 0600): never
from the cache directory, so a planted or tampered cache fails the check and is rebuilt."""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import hmac
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

MAGIC = b"toolc-cache-2\n"


class CacheRefused(Exception):
    """A cache file that is not ours (or not intact): the reason says which."""


def _config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "toolc"


def cache_key() -> bytes:
    """The key caches are authenticated with: `TOOLC_CACHE_KEY`, else the user's key file
    (made on first use, readable by the user alone)."""
    given = os.environ.get("TOOLC_CACHE_KEY")
    if given:
        return hashlib.sha256(b"toolc-cache-key\0" + given.encode()).digest()
    path = _config_dir() / "cache.key"
    try:
        data = path.read_bytes()
        if len(data) >= 32 and (path.stat().st_mode & 0o077) == 0:
            return data[:32]
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as stream:
        os.fchmod(stream.fileno(), 0o600)
        stream.write(key)
    return key


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

    def dumps(self, value: Any, key: bytes, bound: str) -> bytes:
        body = orjson.dumps(self.encode(value))
        tag = hmac.new(key, MAGIC + bound.encode() + b"\0" + body, hashlib.sha256)
        return MAGIC + tag.hexdigest().encode() + b"\n" + body

    # -- decoding -----------------------------------------------------------------------
    def decode(self, node: Any) -> Any:
        if isinstance(node, list):
            return [self.decode(v) for v in node]
        if not isinstance(node, dict):
            return node
        if len(node) == 1:
            ((tag, inner),) = node.items()
            if tag == "$u":
                return inner.encode("utf-8")
            if tag == "$b":
                return base64.b64decode(inner)
            if tag == "$t":
                return tuple(self.decode(v) for v in inner)
            if tag == "$f":
                return frozenset(self.decode(v) for v in inner)
            if tag == "$d":
                return {k: self.decode(v) for k, v in inner.items()}
        if set(node) == {"$c", "v"}:
            cls = self.classes.get(node["$c"])
            if cls is None or node["$c"] not in self.fields:
                raise CacheRefused(f"names a class it may not build: {node['$c']!r}")
            return cls(*(self.decode(v) for v in node["v"]))
        if set(node) == {"$e", "v"}:
            cls = self.classes.get(node["$e"])
            if cls is None or not issubclass(cls, enum.Enum):
                raise CacheRefused(f"names an enum it may not build: {node['$e']!r}")
            return cls(node["v"])
        raise CacheRefused("holds a value of no known form")

    def loads(self, data: bytes, key: bytes, bound: str) -> Any:
        if not data.startswith(MAGIC):
            raise CacheRefused("is not a toolc build cache of this format")
        head, _, body = data[len(MAGIC) :].partition(b"\n")
        expected = hmac.new(key, MAGIC + bound.encode() + b"\0" + body, hashlib.sha256)
        if not hmac.compare_digest(head, expected.hexdigest().encode()):
            raise CacheRefused("was not written by you for this build (its key does not match)")
        try:
            return self.decode(orjson.loads(body))
        except (TypeError, ValueError, KeyError, orjson.JSONDecodeError) as exc:
            raise CacheRefused(f"is damaged ({type(exc).__name__})") from exc
