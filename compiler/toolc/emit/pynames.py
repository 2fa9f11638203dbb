"""Class and alias names of the generated models (decision 0032).

A place in a schema is a path of segments: property names (plain strings) and keywords
(`Keyword`), so a property called `items` or `additionalProperties` is never taken for the
keyword. Its name is the name of its nearest named ancestor (`<Tool>Args`, `<Tool>Data`,
`<Tool>Item`, a shared type, or the lowering's owner) followed by one word per segment below
it: a property's PascalCase name, `Item` for an array's element, `Value` for an object's
`additionalProperties`. An alias that only keeps a line short adds a word to the name of its
place: `Type` for the non-null part of a nullable or optional type, `<Kind>Type` for a member
of a union (`StringType`, `ArrayType`, ...), `Union` for a long union.

A keyword's word is never a property's word in the same schema (an object with a property
`value` and `additionalProperties` names its extra values `...Entry`). Two places whose names
still read alike (`a_b` beside `a.b`) keep the name for the first one lowered; the other gets
`_` and six hex digits of its path's hash, which depend on that path alone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from toolc.model.naming import pascal


@dataclass(frozen=True)
class Keyword:
    """A segment that is a keyword: equal to another by `kind`, whatever word it reads as."""

    kind: str
    word: str = field(compare=False)


Segment = str | Keyword
Path = tuple[Segment, ...]
Naming = Callable[[Path], str | None]  # the names a lowering's caller gives some places

ITEMS = Keyword("items", "Item")
# Words tried in turn until one is not a property's word in the same schema.
_WORDS = {
    "items": ("Item", "Element", "Member"),
    "additionalProperties": ("Value", "Entry", "Extra"),
    "Type": ("Type", "Alias", "Kind"),
    "Union": ("Union", "Choice", "Variant"),
}


def segment(part: Segment) -> str:
    return part.word if isinstance(part, Keyword) else pascal(part).rstrip("_")


def _property_words(schema: Any) -> set[str]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    return {segment(p) for p in props} if isinstance(props, dict) else set()


def keyword(kind: str, schema: Any, prefix: str = "") -> Keyword:
    """The segment of a keyword of `schema`, read as a word none of its properties reads as."""
    words = [prefix + w for w in _WORDS[kind]]
    taken = _property_words(schema)
    return Keyword(prefix + kind, next((w for w in words if w not in taken), words[0]))


class Names:
    """The names one module's lowerings give, each at most once."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self._taken = set(taken)

    def name(self, owner: str, path: Path, naming: Naming, word: Keyword | None = None) -> str:
        """The name of the place `path` (a class there, or with `word` an alias beside it)."""
        base, below = owner, path
        for cut in range(len(path), -1, -1):
            named = naming(path[:cut])
            if named is not None:
                base, below = named, path[cut:]
                break
        chosen = base + "".join(segment(p) for p in below) + (word.word if word else "")
        key = "/".join(f"#{p.kind}" if isinstance(p, Keyword) else p for p in path)
        key += f"/#{word.kind}" if word else ""
        plain, salt = chosen, 0
        while chosen in self._taken:
            digest = hashlib.sha256(f"{key}{'#' * salt}".encode()).hexdigest()[:6]
            chosen, salt = f"{plain}_{digest}", salt + 1
        self._taken.add(chosen)
        return chosen
