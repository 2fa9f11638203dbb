"""The build cache's format runs nothing it reads: values are rebuilt only through the
constructors of registered classes, and a file that is not the user's own (another key, a
flipped byte, a class outside the set) is refused before it is decoded."""

from __future__ import annotations

import enum
import pickle
from dataclasses import dataclass, field

import pytest
from toolc.cache.codec import MAGIC, CacheRefused, CacheStale, Codec


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True, slots=True)
class Leaf:
    name: str
    data: bytes
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Tree:
    leaves: dict[str, Leaf]
    spans: tuple[tuple[str, int], ...]
    order: list[str] = field(default_factory=list)
    colour: Colour = Colour.RED
    blob: bytes = b""


KEY, OTHER = b"k" * 32, b"o" * 32
CODEC = Codec([Leaf, Tree, Colour])
VALUE = Tree(
    {"a": Leaf("a", "ação\n".encode(), frozenset({"x", "y"})), "$d": Leaf("$d", b"")},
    (("p", 1), ("q", -2)),
    ["a", "$d"],
    blob=b"\xff\x00binary",
)


def test_every_registered_value_round_trips() -> None:
    data = CODEC.dumps(VALUE, KEY, "project")
    assert data.startswith(MAGIC)
    assert CODEC.loads(data, KEY, "project") == VALUE
    version, body = data[len(MAGIC) :].split(b"\n", 2)[:2]  # streamed: the same JSON as all at once
    assert version == b""
    import orjson

    assert body == orjson.dumps(CODEC.encode(VALUE))
    big = Tree({}, (), blob=b'x\n"' * 400_000)  # large bytes go raw, after the JSON
    raw = CODEC.dumps(big, KEY, "project")
    assert b'"$r":[0,1200000]' in raw and CODEC.loads(raw, KEY, "project") == big


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: d.replace(b'"a"', b'"b"', 1),  # a tampered body
        lambda d: d[:-2] + d[-1:],
        lambda d: d[:-65] + b"0" * 64 + b"\n",  # a forged tag
        lambda d: b"\x80\x04" + d,  # not ours at all
    ],
)
def test_a_tampered_file_is_refused(mangle: object) -> None:
    data = CODEC.dumps(VALUE, KEY, "project")
    with pytest.raises(CacheRefused):
        CODEC.loads(mangle(data), KEY, "project")  # type: ignore[operator]


def test_a_cache_of_another_toolc_is_stale_before_anything_is_decoded() -> None:
    """Its classes may have other fields: it is dropped without a word, never 'damaged'."""
    data = CODEC.dumps(VALUE, KEY, "project", b"toolc-1")
    assert CODEC.loads(data, KEY, "project", b"toolc-1") == VALUE
    with pytest.raises(CacheStale):
        CODEC.loads(data, KEY, "project", b"toolc-2")
    with pytest.raises(CacheStale):
        CODEC.loads(CODEC.dumps(VALUE, KEY, "project"), KEY, "project", b"toolc-2")


def test_another_key_or_another_build_is_refused() -> None:
    data = CODEC.dumps(VALUE, KEY, "project")
    with pytest.raises(CacheRefused, match="key"):
        CODEC.loads(data, OTHER, "project")
    with pytest.raises(CacheRefused, match="key"):
        CODEC.loads(data, KEY, "another project")


def test_a_pickle_is_never_executed(tmp_path: object) -> None:
    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (print, ("executed!",))

    planted = pickle.dumps(Boom())
    with pytest.raises(CacheRefused):
        CODEC.loads(planted, KEY, "project")


def test_a_well_signed_file_naming_another_class_is_refused() -> None:
    """Even with the right key, only the registered classes can be built."""
    import hashlib
    import hmac

    body = b'{"$c":"Popen","v":[["sh","-c","true"]]}'
    signed = b"\n" + body + b"\n"  # an empty version line, the JSON, no raw bytes
    tag = hmac.new(KEY, MAGIC + b"project\0" + signed, hashlib.sha256).hexdigest().encode()
    with pytest.raises(CacheRefused, match="Popen"):
        CODEC.loads(MAGIC + signed + b"\n" + tag + b"\n", KEY, "project")


def test_unregistered_values_cannot_be_stored() -> None:
    with pytest.raises(TypeError):
        CODEC.dumps(object(), KEY, "project")
