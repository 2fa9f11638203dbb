"""What to write instead, for a tool's `content:` declaration (decision 0056): the kinds are MCP's
content block types, and each lists media types in lowercase `type/subtype` form. The schema
refuses by pattern; these read what the user wrote and name the fix."""

from __future__ import annotations

import re
from typing import Any

_KINDS = "the kinds are MCP's content block types: image, audio, resource_link, resource"
_TOKEN = r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}"
_MEDIA_TYPE = re.compile(rf"({_TOKEN})/(\*|{_TOKEN})")
_TOP = {"image": "image", "audio": "audio"}  # kinds whose media type has a fixed top-level type
_EXAMPLE = {
    "image": "image/png",
    "audio": "audio/wav",
    "resource_link": "application/pdf",
    "resource": "text/plain",
}


def is_content_location(schema_location: list[str]) -> bool:
    return schema_location[:2] == ["$defs", "Content"]


def media_type_problem(kind: str, value: Any) -> tuple[str, str]:
    """The message and the fix for a media type the pattern of `kind` refused."""
    shown = f"{value!r}"
    message = f"{shown} is not a media type {kind} content may declare"
    if not isinstance(value, str):
        return message, f"write a media type as a string, e.g. `{_EXAMPLE[kind]}`"
    essence = value.split(";", 1)[0].strip()
    if essence != value:
        return message, (
            f"declare it without parameters: `{essence.lower()}` (a returned block's "
            "parameters are not compared)"
        )
    if value != value.lower() and _fits(kind, value.lower()):
        return message, f"media types are declared in lowercase: `{value.lower()}`"
    found = _MEDIA_TYPE.fullmatch(value.lower())
    if found is None:
        if kind in _TOP and "/" not in value and re.fullmatch(_TOKEN, value.lower()):
            return message, f"write the whole media type: `{_TOP[kind]}/{value.lower()}`"
        return message, (
            f"write `type/subtype` (RFC 6838), e.g. `{_EXAMPLE[kind]}`, or `type/*` for any subtype"
        )
    top = found.group(1)
    if kind in _TOP and top != _TOP[kind]:
        other = next((k for k, t in _TOP.items() if t == top), None)
        where = f"under `{other}:`" if other else "under `resource:` or `resource_link:`"
        return message, f"{kind} media types start with `{_TOP[kind]}/`: declare `{value}` {where}"
    return message, f"write `type/subtype` (RFC 6838), e.g. `{_EXAMPLE[kind]}`"


def unknown_kind_hint(key: str) -> str:
    """For a key under `content:` that is no kind."""
    if key == "text":
        return (
            "the envelope's text block is the tool's text: declare text in `returns`, or a "
            "document as `resource: [text/plain]`"
        )
    if key in ("video", "application", "font", "model"):
        return f"{_KINDS} (a {key} file goes as a resource, e.g. `resource_link: [{key}/*]`)"
    return _KINDS


def _fits(kind: str, value: str) -> bool:
    found = _MEDIA_TYPE.fullmatch(value)
    return found is not None and (kind not in _TOP or found.group(1) == _TOP[kind])
