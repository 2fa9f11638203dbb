"""Which `$ref`s other than `#/types/<Name>` are mistakes: a JSON pointer that leads to no
schema of its fragment, an anchor (`#name`), a reference outside the fragment."""

from __future__ import annotations

from typing import Any

from toolc.model.schemas import MISSING, Fragment, is_pointer, is_type_ref, resolve, walk
from toolc.source.document import JsonPath


def _problem(document: Any, ref: str) -> tuple[str, str, str] | None:
    """(code, message, fix) for a `$ref` that is not a type's, or None when it resolves."""
    if is_pointer(ref):
        target = resolve(document, ref)
        if target is MISSING or not isinstance(target, dict | bool):
            return (
                "unknown-ref",
                f"`$ref` '{ref}' points at no schema of this fragment",
                "a pointer is read from the root of the argument, `returns`, item or type it "
                "is written in (in `args_keywords`, from the arguments object); a shared type "
                "is `#/types/<Name>`",
            )
        return None
    if ref.startswith("#"):
        return (
            "unsupported-keyword",
            f"`$ref` '{ref}' names an anchor: `$anchor` is kept as an annotation, never resolved",
            "point at the schema with a JSON pointer, e.g. `#/$defs/<Name>`",
        )
    return (
        "unsupported-keyword",
        f"`$ref` '{ref}' is not local: toolc publishes self-contained schemas and fetches nothing",
        "copy the schema under `types:` (and write `#/types/<Name>`) or into `$defs`",
    )


def ref_problems(
    documents: list[tuple[JsonPath, Any, Fragment]],
) -> dict[JsonPath, tuple[str, str, str]]:
    """Every schema node whose `$ref` is not a type's and does not resolve, with why (each
    fragment given with the document its pointers are read in)."""
    found: dict[JsonPath, tuple[str, str, str]] = {}
    for root, document, schema in documents:
        for path, kw in walk(schema, root):
            ref = kw.field_ref
            if ref is None or is_type_ref(ref):
                continue
            problem = _problem(document, ref)
            if problem is not None:
                found[path] = problem
    return found
