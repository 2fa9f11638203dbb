"""What a generated server offers besides its tools, given to `create_server`:
resources (static, text or binary), resource templates, prompts and a completion
handler. Small typed values, so a server never reaches into the SDK's objects;
server_extension_handlers turns them into the protocol's handlers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .server_content import Image


@dataclass(frozen=True, slots=True)
class Resource:
    """A resource a client may list and read: `text` or `blob` (raw bytes), not both.

    A `ResourceTemplate`'s reader returns one too, with the URI it was asked for."""

    uri: str
    name: str
    text: str | None = None
    blob: bytes | None = None
    mime_type: str | None = None
    title: str | None = None
    description: str | None = None

    def __post_init__(self) -> None:
        if (self.text is None) == (self.blob is None):
            raise ValueError(f"resource {self.uri}: give exactly one of text or blob")


# Reads a templated resource: the URI asked for and the template's variables in it.
ResourceReader = Callable[[str, Mapping[str, str]], Awaitable[Resource]]


@dataclass(frozen=True, slots=True)
class ResourceTemplate:
    """Resources named by an RFC 6570 level-1 template such as `res://items/{id}`;
    `read` answers each URI that matches it."""

    uri_template: str
    name: str
    read: ResourceReader
    mime_type: str | None = None
    title: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class PromptArgument:
    name: str
    description: str | None = None
    required: bool = False


@dataclass(frozen=True, slots=True)
class PromptMessage:
    """One message of a prompt: text, an image, or an embedded resource."""

    role: Literal["user", "assistant"]
    content: str | Image | Resource


# Renders a prompt from the arguments the client sent (required ones checked first).
PromptRenderer = Callable[[Mapping[str, str]], Awaitable[Sequence[PromptMessage]]]


@dataclass(frozen=True, slots=True)
class Prompt:
    name: str
    render: PromptRenderer
    arguments: Sequence[PromptArgument] = ()
    title: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class CompletionRef:
    """What a completion is for: a prompt's argument (`kind="prompt"`, `name` the
    prompt's) or a resource template's variable (`kind="resource"`, `name` its
    URI template)."""

    kind: Literal["prompt", "resource"]
    name: str


# `complete(ref, argument, value, context)`: the values to offer for `argument` whose
# text so far is `value`; `context` holds the arguments already chosen. At most 100
# are sent (the protocol's limit), with `hasMore` when there were more.
Completer = Callable[
    [CompletionRef, str, str, Mapping[str, str]], Awaitable[Sequence[str]]
]
