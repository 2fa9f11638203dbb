"""Changes to the content a tool declares beside its data (decision 0058): a kind or media
type a caller may now receive, or no longer. A contract without `content` declares the
default, images of any type, so declaring a narrower set removes, never adds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolc.evolution.findings import Finding, finding
from toolc.evolution.views import obj

DEFAULT = {"image": ["image/*"]}


def _declared(contract: Mapping[str, Any]) -> dict[str, list[str]]:
    stated = contract.get("content")
    if not isinstance(stated, Mapping):
        return DEFAULT
    return {
        k: [m for m in v if isinstance(m, str)]
        for k, v in obj(stated).items()
        if isinstance(v, list)
    }


def _covered(media: str, by: list[str]) -> bool:
    """Whether every type `media` allows is allowed by one of `by` (wildcards included)."""
    top = media.partition("/")[0]
    for other in by:
        want_top, _, want_sub = other.partition("/")
        if other == media or other == "*/*" or (want_sub == "*" and want_top == top != "*"):
            return True
    return False


def content_changes(name: str, old: Mapping[str, Any], new: Mapping[str, Any]) -> list[Finding]:
    before, after = _declared(old), _declared(new)
    found = []
    for kind in sorted(before.keys() | after.keys()):
        was, now = before.get(kind, []), after.get(kind, [])
        path = f"/content/{kind}"
        added = [m for m in now if not _covered(m, was)]
        removed = [m for m in was if not _covered(m, now)]
        if added:
            what = f"{kind} content may now be {', '.join(added)}"
            found.append(finding("content-added", name, path, what))
        if removed:
            what = f"{kind} content is no longer {', '.join(removed)}"
            found.append(finding("content-removed", name, path, what))
    return found
