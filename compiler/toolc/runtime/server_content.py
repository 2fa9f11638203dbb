"""The content a tool's result carries besides the envelope's text block (decision
0056): the typed items a handler returns in `Reply(data, content=[...])`, the tool's
declaration the server holds them to (its `_meta.content`, else images of any type),
the order they are sent in (decision 0057: images, audio, resource links, embedded
resources, then the text), and the same items read back from a result by the client."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from mcp import types
from pydantic import ValidationError
from pydantic_core import PydanticSerializationError, to_json

# What a tool may return when it declares nothing: the images every envelope allowed
# before content could be declared (ADR-016).
DEFAULT_CONTENT: Mapping[str, tuple[str, ...]] = {"image": ("image/*",)}
KIND_ORDER = ("image", "audio", "resource_link", "resource")


_BYTES = (bytes, bytearray, memoryview)


def _base64(data: bytes | str) -> str:
    if isinstance(data, _BYTES):  # raw bytes, however held
        return base64.b64encode(data).decode("ascii")
    return data


@dataclass(frozen=True, slots=True)
class Image:
    """An image block. `data`: raw bytes, or text already in base64."""

    data: bytes | str
    mime_type: str
    kind: ClassVar[str] = "image"

    def block(self) -> types.ImageContent:
        return types.ImageContent(
            type="image", data=_base64(self.data), mime_type=self.mime_type
        )


@dataclass(frozen=True, slots=True)
class Audio:
    """An audio block. `data`: raw bytes, or text already in base64."""

    data: bytes | str
    mime_type: str
    kind: ClassVar[str] = "audio"

    def block(self) -> types.AudioContent:
        return types.AudioContent(
            type="audio", data=_base64(self.data), mime_type=self.mime_type
        )


@dataclass(frozen=True, slots=True)
class ResourceLink:
    """A link to a resource the client may read (`resources/read`)."""

    uri: str
    name: str
    mime_type: str
    title: str | None = None
    description: str | None = None
    size: int | None = None
    kind: ClassVar[str] = "resource_link"

    def block(self) -> types.ResourceLink:
        return types.ResourceLink(
            type="resource_link",
            uri=self.uri,
            name=self.name,
            mime_type=self.mime_type,
            title=self.title,
            description=self.description,
            size=self.size,
        )


@dataclass(frozen=True, slots=True)
class EmbeddedText:
    """A resource embedded in the result, as text."""

    uri: str
    text: str
    mime_type: str
    kind: ClassVar[str] = "resource"

    def block(self) -> types.EmbeddedResource:
        contents = types.TextResourceContents(
            uri=self.uri, mime_type=self.mime_type, text=self.text
        )
        return types.EmbeddedResource(type="resource", resource=contents)


@dataclass(frozen=True, slots=True)
class EmbeddedBlob:
    """A resource embedded in the result, as bytes (or text already in base64)."""

    uri: str
    data: bytes | str
    mime_type: str
    kind: ClassVar[str] = "resource"

    def block(self) -> types.EmbeddedResource:
        contents = types.BlobResourceContents(
            uri=self.uri, mime_type=self.mime_type, blob=_base64(self.data)
        )
        return types.EmbeddedResource(type="resource", resource=contents)


Content = Image | Audio | ResourceLink | EmbeddedText | EmbeddedBlob
CONTENT_TYPES = (Image, Audio, ResourceLink, EmbeddedText, EmbeddedBlob)


def essence(mime_type: str) -> str:
    """A media type as compared: lowercase, without parameters (`Text/Plain; q=1`)."""
    return mime_type.split(";", 1)[0].strip().lower()


def _matches(declared: str, mime_type: str) -> bool:
    top, _, sub = essence(mime_type).partition("/")
    if not top or not sub:
        return False
    want_top, _, want_sub = declared.partition("/")
    return want_top in ("*", top) and want_sub in ("*", sub)


class DeclaredContent:
    """What one tool may return besides its data: kind → media types."""

    def __init__(self, declared: Mapping[str, Sequence[str]] | None = None) -> None:
        chosen = DEFAULT_CONTENT if declared is None else declared
        self.kinds = {
            kind: tuple(chosen[kind]) for kind in KIND_ORDER if kind in chosen
        }

    def problems(self, items: Sequence[object]) -> list[dict[str, str]]:
        """Each item the declaration does not allow, as INVALID_RESULT names it."""
        found = []
        for index, item in enumerate(items):
            reason = self._refusal(item)
            if reason is not None:
                found.append(
                    {"field": f"content[{index}]", "reason": reason, "type": "content"}
                )
        return found

    def _refusal(self, item: object) -> str | None:
        if not isinstance(item, CONTENT_TYPES):
            return "not a content item (Image, Audio, ResourceLink, EmbeddedText, ...)"
        allowed = self.kinds.get(item.kind)
        if allowed is None:
            return f"the tool declares no {item.kind} content"
        if not isinstance(item.mime_type, str) or not any(
            _matches(d, item.mime_type) for d in allowed
        ):
            declared = ", ".join(allowed)
            return f"a media type its {item.kind} content does not declare ({declared})"
        data = getattr(item, "data", None)
        if isinstance(data, str):
            try:
                base64.b64decode(data, validate=True)
            except (binascii.Error, ValueError):
                return "data given as text that is not base64"
        # A field of another type (`size="1KB"`, `name=None`): its block is made, its
        # data left out (checked here; encoding megabytes twice a call is not).
        probe: Any = item
        if isinstance(item, Image | Audio | EmbeddedBlob):
            if not isinstance(data, (str, *_BYTES)):
                return f"data of its {item.kind} block is no bytes nor base64 text"
            probe = (
                EmbeddedBlob(item.uri, "", item.mime_type)
                if isinstance(item, EmbeddedBlob)
                else type(item)("", item.mime_type)
            )
        try:
            block = probe.block()
        except ValidationError as exc:
            wrong = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}"
                for e in exc.errors(include_url=False, include_input=False)
            )
            return f"a field its {item.kind} block cannot hold ({wrong})"
        try:  # a lone surrogate in its text or name: the SDK's writer would fail on it
            to_json(block)
        except PydanticSerializationError:
            return f"text of its {item.kind} block that is not UTF-8 text"
        return None


def ordered(items: Sequence[Content]) -> list[Content]:
    """The order blocks are sent in: by kind (images first, as ADR-016 asks), each kind
    in the order the handler gave it."""
    return sorted(items, key=lambda item: KIND_ORDER.index(item.kind))


def _decoded(data: str) -> bytes | str:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return data  # as received: the raw block is in `content` too


def from_block(block: Any) -> Content | None:
    """A received block as a content item; None for text and for kinds this runtime
    does not know (they stay in the result's `content`, as received)."""
    if isinstance(block, types.ImageContent):
        return Image(_decoded(block.data), block.mime_type)
    if isinstance(block, types.AudioContent):
        return Audio(_decoded(block.data), block.mime_type)
    if isinstance(block, types.ResourceLink):
        return ResourceLink(
            block.uri,
            block.name,
            block.mime_type or "",
            block.title,
            block.description,
            block.size,
        )
    if isinstance(block, types.EmbeddedResource):
        inner = block.resource
        if isinstance(inner, types.TextResourceContents):
            return EmbeddedText(inner.uri, inner.text, inner.mime_type or "")
        return EmbeddedBlob(inner.uri, _decoded(inner.blob), inner.mime_type or "")
    return None


class ContentView:
    """The typed view of a client result's `content` blocks (in Success and Failure)."""

    __slots__ = ()
    content: tuple[types.ContentBlock, ...]

    @property
    def attachments(self) -> tuple[Content, ...]:
        """Every block but text as a content item, in the order sent."""
        return tuple(item for b in self.content if (item := from_block(b)) is not None)

    @property
    def images(self) -> tuple[Image, ...]:
        return tuple(i for i in self.attachments if isinstance(i, Image))

    @property
    def audio(self) -> tuple[Audio, ...]:
        return tuple(i for i in self.attachments if isinstance(i, Audio))

    @property
    def resource_links(self) -> tuple[ResourceLink, ...]:
        return tuple(i for i in self.attachments if isinstance(i, ResourceLink))

    @property
    def resources(self) -> tuple[EmbeddedText | EmbeddedBlob, ...]:
        return tuple(
            i for i in self.attachments if isinstance(i, EmbeddedText | EmbeddedBlob)
        )
