"""The import lines of the generated modules, grouped and sorted as isort (ruff's I rules)
wants them, and the orders ruff checks names in (`__all__`, imported names, modules)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from toolc.emit.pyexpr import LINE_LENGTH
from toolc.emit.pywidth import width

TYPING = ("Annotated", "Any", "Literal", "Optional", "TypeAlias", "Union")
PYDANTIC = (
    "AfterValidator", "BaseModel", "BeforeValidator", "ConfigDict", "Field", "PlainValidator",
    "WrapSerializer", "WrapValidator",
)  # fmt: skip
HELPERS = (
    "CheckedExtrasModel", "CheckedModel", "ExtrasModel", "JsonInt", "WireModel", "as_sent",
    "conforms", "conforms_number", "conforms_sent", "integral", "one_of", "reject_null", "tag_of",
    "tagged", "unique_items", "validated",
)  # fmt: skip
ENVELOPE = ("ErrorInfo", "Meta")
# What a models module may import: no class or alias it defines may take one of these names.
IMPORTABLE = frozenset((*TYPING, *PYDANTIC, *HELPERS, *ENVELOPE))
FUTURE = "from __future__ import annotations"

Groups = tuple[tuple[str, ...], ...]  # import lines, a blank line between two groups


# A name's natural order as one string that sorts as ruff's order: strings compare in C,
# where the tuples of (class, text) pairs this was compared faster by half (measured: 7.4
# against 15.2 ms to key and sort the 5,946 names of 1,000 tools). Each run of the name is
# a class mark (a digit run with a leading zero, another digit run, text: in that order)
# and its text, then NUL, which no name holds and which sorts before every character, so a
# run that is a prefix of another sorts first, as a shorter tuple did.
Key = str
_RUNS = re.compile(r"[0-9]+|[^0-9]+")


@functools.cache  # pure; the registry sorts every tool's names with it
def natural_key(text: str) -> Key:
    """ruff's natural order (strnatcmp's): runs of digits compare as numbers (t2 before t10),
    a run with a leading zero digit by digit, as a fraction (t0 before t01 before t1)."""
    return "".join(
        (f"\x01{run}\x00" if run[0] == "0" else f"\x02{len(run):06d}{run}\x00")
        if run.isdigit()
        else f"\x03{run}\x00"
        for run in _RUNS.findall(text)
    )


def _kind(name: str) -> int:
    return 0 if name.isupper() and len(name) > 1 else 1 if name[:1].isupper() else 2


@functools.cache
def isort_key(name: str) -> tuple[int, Key]:
    """isort's order-by-type for imported names (CONSTANTS, Classes, others), case-blind."""
    return _kind(name), natural_key(name.lower())


@functools.cache
def all_key(name: str) -> tuple[int, Key]:
    """ruff's RUF022 order for `__all__`: the same kinds, case-sensitive within each."""
    return _kind(name), natural_key(name)


# The package-wide orders, memoized on the whole collection: the build daemon assembles the
# same names build after build (an edit rarely renames), and sorting 3,000 names by these
# keys took 5-6 ms each time (their tuples compare slowly). The orders are total on distinct
# names, so the result does not depend on the order of the input.
@functools.lru_cache(maxsize=4)
def in_all_order(names: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=all_key))


@functools.lru_cache(maxsize=4)
def in_isort_order(items: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(name, module) pairs by name; pairs whose names differ only in case keep their order."""
    return tuple(sorted(items, key=lambda item: isort_key(item[0])))


def imports(used: set[str], local: set[str], shared: set[str], depth: str) -> Groups:
    """The import groups of a models module: the names it uses and does not define itself
    (`depth`: the relative prefix of the package, `.` or `..`)."""

    def pick(offered: Iterable[str]) -> list[str]:
        return sorted((n for n in offered if n in used and n not in local), key=isort_key)

    own = (
        (f"{depth}_jsonschema", pick(HELPERS)),
        (f"{depth}envelope", pick(ENVELOPE)),
        (f"{depth}shared", pick(shared)),
    )
    groups = [
        (FUTURE,),
        (import_line("typing", pick(TYPING)),) if pick(TYPING) else (),
        (import_line("pydantic", pick(PYDANTIC)),) if pick(PYDANTIC) else (),
        tuple(import_line(module, names) for module, names in own if names),
    ]
    return tuple(group for group in groups if group)


def import_line(module: str, names: Iterable[str], indent: str = "") -> str:
    listed = sorted(names, key=isort_key)
    line = f"{indent}from {module} import {', '.join(listed)}"
    if width(line) <= LINE_LENGTH:
        return line
    inner = "".join(f"{indent}    {n},\n" for n in listed)
    return f"{indent}from {module} import (\n{inner}{indent})"
