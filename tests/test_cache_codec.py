"""The build cache's format runs nothing it reads: values are rebuilt only through the
constructors of the classes the root's annotations name, and a file that is not the user's own
(another key, a flipped byte, another toolc's or Python's) is refused or dropped before a byte
of it is decoded (decisions 0039, 0118)."""

from __future__ import annotations

import enum
import hashlib
import hmac
import marshal
import pickle
import struct
from pathlib import Path
from typing import Literal

import msgspec
import pytest
from msgspec import field
from toolc.cache.codec import _PLATFORM, MAGIC, CacheRefused, CacheStale, Codec


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Leaf(msgspec.Struct, frozen=True):
    name: str
    data: bytes
    tags: frozenset[str] = frozenset()
    colour: Colour | None = None


class Tree(msgspec.Struct, frozen=True):
    leaves: dict[str, Leaf]
    spans: tuple[tuple[str, int | str], ...]
    order: list[str] = field(default_factory=list)
    colour: Colour = Colour.RED
    blob: bytes = b""
    kids: list[tuple[Leaf, tuple[str, int], tuple[Leaf, ...]]] = field(default_factory=list)
    kind: Literal["a", "b"] = "a"
    stats: dict[str, tuple[int, int, int]] = field(default_factory=dict)


KEY, OTHER = b"k" * 32, b"o" * 32
CODEC = Codec(Tree)
A = Leaf("a", "ação\n".encode(), frozenset({"x", "y"}), Colour.BLUE)
VALUE = Tree(
    {"a": A, "$d": Leaf("$d", b"\xff\x00not utf-8")},
    (("p", 1), ("q", "r")),
    ["a", "$d"],
    blob=b"\xff\x00binary",
    kids=[(A, ("s", 3), (A, Leaf("z", b"")))],
    kind="b",
    stats={"x.py": (1, 2, 3)},
)


def _frames(data: bytes) -> list[bytes]:
    body = data[len(MAGIC) : -66].split(b"\n", 1)[1]
    found, at = [], 0
    while at < len(body):
        (size,) = struct.unpack_from(">Q", body, at)
        found.append(body[at + 8 : at + 8 + size])
        at += 8 + size
    return found


def _signed(body: bytes, version: bytes = b"") -> bytes:
    """A file with the right key around `body` (what only the key's holder can make)."""
    signed = version + _PLATFORM + b"\n" + body
    tag = hmac.new(KEY, MAGIC + b"project\0" + signed, hashlib.sha256).hexdigest().encode()
    return MAGIC + signed + b"\n" + tag + b"\n"


def test_every_value_the_annotations_allow_round_trips() -> None:
    data = CODEC.dumps(VALUE, KEY, "project")
    assert data.startswith(MAGIC)
    back = CODEC.loads(data, KEY, "project")
    assert back == VALUE
    assert type(back.spans) is tuple and type(back.leaves["a"].tags) is frozenset
    assert back.leaves["a"].colour is Colour.BLUE and back.kids[0][2][1] == Leaf("z", b"")


def test_records_stream_one_frame_each_and_bytes_go_as_they_are() -> None:
    """Only one record is ever encoded at once; a large blob is not marshalled (copied)."""
    big = Tree({f"t{i}": Leaf(f"t{i}", b"x" * i) for i in range(5)}, (), blob=b'x\n"' * 400_000)
    frames = _frames(CODEC.dumps(big, KEY, "project"))
    assert marshal.loads(frames[0]) == 5  # the dict's size, then its entries
    assert [marshal.loads(f)[0] for f in frames[1:6]] == [f"t{i}" for i in range(5)]
    assert b'x\n"' * 400_000 in frames
    assert CODEC.loads(CODEC.dumps(big, KEY, "project"), KEY, "project") == big


def test_an_entry_loaded_and_unchanged_is_written_as_the_frame_it_was_read_from() -> None:
    """`loads(frames=...)` hands back each entry's frame; `dump(reuse=...)` writes the one it
    is given as it is (a record an edit did not touch is not encoded again), and the file
    loads to the same value, signed as any other."""
    data = CODEC.dumps(VALUE, KEY, "project")
    frames: dict[tuple[str, str], memoryview] = {}
    back = CODEC.loads(data, KEY, "project", frames=frames)
    assert set(frames) == {("leaves", "a"), ("leaves", "$d")}
    assert marshal.loads(frames[("leaves", "a")])[0] == "a"
    changed = Leaf("$d", b"changed")
    edited = Tree({**back.leaves, "$d": changed}, back.spans, back.order)
    asked: list[tuple[str, str]] = []

    def reuse(name: str, key: str, value: object) -> memoryview | None:
        asked.append((name, key))
        return frames[(name, key)] if value is back.leaves.get(key) else None

    again = CODEC.dumps(edited, KEY, "project", reuse=reuse)
    assert asked == [("leaves", "a"), ("leaves", "$d")]
    assert bytes(frames[("leaves", "a")]) in _frames(again)  # written as read
    assert CODEC.loads(again, KEY, "project") == edited
    assert CODEC.loads(again, KEY, "project").leaves["$d"] == changed  # encoded afresh
    with pytest.raises(CacheRefused):
        CODEC.loads(again[:-3] + b"00\n", KEY, "project")


@pytest.mark.parametrize(
    "mangle",
    [
        lambda d: d.replace(b"binary", b"BINARY", 1),  # a tampered body
        lambda d: d[:-2] + d[-1:],
        lambda d: d[:-65] + b"0" * 64 + b"\n",  # a forged tag
        lambda d: b"\x80\x04" + d,  # not ours at all
        lambda d: d[:-80],  # cut short
    ],
)
def test_a_tampered_file_is_refused(mangle: object) -> None:
    data = CODEC.dumps(VALUE, KEY, "project")
    with pytest.raises(CacheRefused):
        CODEC.loads(mangle(data), KEY, "project")  # type: ignore[operator]


def test_a_cache_of_another_toolc_python_or_format_is_stale_before_anything_is_decoded() -> None:
    """Its classes may have other fields: it is dropped without a word, never 'damaged'."""
    data = CODEC.dumps(VALUE, KEY, "project", b"toolc-1")
    assert CODEC.loads(data, KEY, "project", b"toolc-1") == VALUE
    with pytest.raises(CacheStale):
        CODEC.loads(data, KEY, "project", b"toolc-2")
    with pytest.raises(CacheStale):
        CODEC.loads(CODEC.dumps(VALUE, KEY, "project"), KEY, "project", b"toolc-2")
    import toolc.cache.codec as codec

    saved, codec._PLATFORM = codec._PLATFORM, b" marshal-4 py2.7"  # as another Python signs
    try:
        other_python = CODEC.dumps(VALUE, KEY, "project", b"toolc-1")
    finally:
        codec._PLATFORM = saved
    with pytest.raises(CacheStale):
        CODEC.loads(other_python, KEY, "project", b"toolc-1")
    # An older format of ours, however it was signed (an early one put its tag first), is
    # never used: stale, without a word. This format without the key: refused, with why.
    old = b"toolc-1\n{}\n"
    tag = hmac.new(KEY, b"toolc-cache-2\nproject\0" + old, hashlib.sha256).hexdigest()
    for older in (
        b"toolc-cache-2\n" + old + b"\n" + tag.encode() + b"\n",
        b"toolc-cache-2\n" + tag.encode() + b"\n" + old,
    ):
        with pytest.raises(CacheStale):
            CODEC.loads(older, KEY, "project")
    with pytest.raises(CacheRefused, match="key"):
        CODEC.loads(data[:-3] + b"00\n", KEY, "project", b"toolc-2")


def test_another_key_or_another_build_is_refused() -> None:
    data = CODEC.dumps(VALUE, KEY, "project")
    with pytest.raises(CacheRefused, match="key"):
        CODEC.loads(data, OTHER, "project")
    with pytest.raises(CacheRefused, match="key"):
        CODEC.loads(data, KEY, "another project")


def test_a_pickle_is_never_executed(tmp_path: Path) -> None:
    witness = tmp_path / "ran"

    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str, str]]:
            return (open, (str(witness), "w"))

    planted = pickle.dumps(Boom())
    with pytest.raises(CacheRefused):
        CODEC.loads(planted, KEY, "project")
    with pytest.raises(CacheRefused):  # even signed: marshal cannot read a pickle's calls
        CODEC.loads(_signed(struct.pack(">Q", len(planted)) + planted), KEY, "project")
    assert not witness.exists()


@pytest.mark.parametrize(
    "frames",
    [
        [marshal.dumps(1)],  # the dict's size, but no entry
        [marshal.dumps("1")],  # a size that is not a number
        [marshal.dumps(1), marshal.dumps((3, ("a", b"", frozenset(), None)))],  # not a name
        [b"\xff" * 12],  # not marshal at all
    ],
)
def test_a_well_signed_file_of_another_shape_is_refused_as_damaged(frames: list[bytes]) -> None:
    """Even with the right key, a file builds only what the annotations say, or nothing."""
    body = b"".join(struct.pack(">Q", len(f)) + f for f in frames)
    with pytest.raises(CacheRefused, match="damaged"):
        CODEC.loads(_signed(body), KEY, "project")
    with pytest.raises(CacheRefused, match="damaged"):  # a frame claiming more than is there
        CODEC.loads(_signed(struct.pack(">Q", 1 << 40) + b"x"), KEY, "project")


def test_what_the_annotations_do_not_describe_cannot_be_stored() -> None:
    with pytest.raises(TypeError):
        CODEC.dumps(object(), KEY, "project")
    with pytest.raises(TypeError):  # a value of another class where a Leaf goes
        CODEC.dumps(Tree({"a": VALUE}, ()), KEY, "project")  # type: ignore[dict-item]

    class Loose(msgspec.Struct, frozen=True):
        anything: object

    with pytest.raises(TypeError, match="cannot store"):
        Codec(Loose)


@pytest.mark.parametrize("error", [MemoryError, RecursionError, KeyError, AttributeError])
def test_whatever_decoding_an_authentic_file_raises_refuses_it_as_damaged(
    error: type[BaseException], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key holder's file can claim a tuple of 2**31 members (16 GB): no error of decoding
    escapes as a traceback."""
    import toolc.cache.codec as codec

    data = CODEC.dumps(VALUE, KEY, "project")

    def failing(_: object) -> object:
        raise error("from marshal")

    monkeypatch.setattr(codec.marshal, "loads", failing)
    with pytest.raises(CacheRefused, match=f"damaged \\({error.__name__}\\)"):
        CODEC.loads(data, KEY, "project")


def test_a_cache_file_larger_than_any_build_makes_is_never_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolc.cache import incremental, prefetch

    planted = tmp_path / "build-x.cache"
    planted.write_bytes(MAGIC + b"x" * 100)
    planted.chmod(0o600)
    tmp_path.chmod(0o700)
    monkeypatch.setattr(prefetch, "MAX_CACHE_BYTES", 64)
    said: list[str] = []
    assert incremental.load(planted, said.append) is None
    assert said and "at most 4 GiB" in said[0], said


@pytest.mark.parametrize(
    ("at", "frame"),
    [
        (4, marshal.dumps(5)),  # `order`, a list, given as a number
        (3, marshal.dumps("p")),  # `spans`, a tuple, given as text
        (1, marshal.dumps(("a", ("a", "not bytes", frozenset(), None)))),  # Leaf.data
        (1, marshal.dumps(("a", ("a", b"", ["a list"], None)))),  # Leaf.tags
        (1, marshal.dumps(("a", ("a", b"")))),  # a Leaf of two fields (it has four)
        (1, marshal.dumps(("a", ("a", b"", frozenset(), None, "a fifth")))),
    ],
)
def test_a_well_signed_field_of_another_type_is_refused_as_damaged(at: int, frame: bytes) -> None:
    """Every other frame as the codec wrote it: only the field's type is wrong, and the
    checks after loading never see it."""
    frames = _frames(CODEC.dumps(VALUE, KEY, "project"))
    assert (
        CODEC.loads(
            _signed(b"".join(struct.pack(">Q", len(f)) + f for f in frames)), KEY, "project"
        )
        == VALUE
    )
    frames[at] = frame
    body = b"".join(struct.pack(">Q", len(f)) + f for f in frames)
    with pytest.raises(CacheRefused, match="damaged"):
        CODEC.loads(_signed(body), KEY, "project")
