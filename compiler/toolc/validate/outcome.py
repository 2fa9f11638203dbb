"""What a file's validation found: the diagnostics, and where the file breaks its schema, so that
the rest of it can still be checked (issue 9, item 14) rather than nothing at all.

A broken place is the path of the value an error is about; for a missing or an unknown key it is
the path of that key (`("tools", "t", "mcp_server")`), for a mapping key that is not a valid name
there (a tool called `cancelar pedidos`) it is recorded among `names` as well.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from toolc.diagnostics import Diagnostic
from toolc.source import JsonPath, LoadedFile
from toolc.validate.schema_errors import Mapper, best_branch, validator_of


class Validation(msgspec.Struct, frozen=True):
    diagnostics: list[Diagnostic]
    broken: frozenset[JsonPath] = frozenset()
    names: frozenset[JsonPath] = frozenset()

    @property
    def ok(self) -> bool:
        return not self.diagnostics


def _broken_at(error: Any) -> Iterator[tuple[JsonPath, bool]]:
    """The places one error is about, and whether each is a name (as the Mapper reads it)."""
    path: JsonPath = tuple(error.instance_path)
    kind = error.kind.name
    if kind == "anyOf":
        branch = best_branch(error) if error.instance != [] else None
        if branch is not None:
            for inner in branch:
                yield from _broken_at(inner)
            return
    if kind == "additionalProperties":
        for key in error.kind.unexpected:
            yield (*path, key), False
    elif kind == "required":
        yield (*path, error.kind.property), False
    elif kind == "propertyNames":
        yield (*path, error.kind.error.instance), True
    else:
        yield path, False


def validate(kind: str, loaded: LoadedFile) -> Validation:
    """Validate ``loaded`` against the published schema ``kind`` ("tools" or "policies")."""
    validator = validator_of(kind)
    if validator.is_valid(loaded.data):
        return Validation([])
    mapper = Mapper(kind, loaded)
    found: dict[tuple[object, ...], Diagnostic] = {}
    broken: set[JsonPath] = set()
    names: set[JsonPath] = set()
    for error in validator.iter_errors(loaded.data):
        for d in mapper.map(error):
            found.setdefault((d.code, d.span, d.message), d)
        for path, is_name in _broken_at(error):
            broken.add(path)
            if is_name:
                names.add(path)
    return Validation(list(found.values()), frozenset(broken), frozenset(names))
