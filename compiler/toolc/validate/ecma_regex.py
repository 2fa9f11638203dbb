"""What a `pattern` means: ECMA-262 with the `u` flag, as every JavaScript client reads the
published schema (decision 0024). `translate` reads a pattern by that grammar and writes the
Rust-regex pattern (pydantic's `regex_engine="rust-regex"`, linear-time) whose search accepts
exactly the strings `new RegExp(pattern, "u").test(s)` accepts; or it says why it cannot: the
pattern is invalid in JavaScript, or it needs what no linear-time engine has."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import msgspec

from toolc.validate.ecma_chars import Invalid, Problem, is_surrogate
from toolc.validate.ecma_parse import Parser

if TYPE_CHECKING:
    from pydantic_core import SchemaValidator

__all__ = [
    "Problem",
    "Refused",
    "Translated",
    "Translation",
    "model_pattern",
    "search",
    "translate",
]


class Translated(msgspec.Struct, frozen=True):
    pattern: str  # Rust regex syntax, for a search (not a full match)


class Refused(msgspec.Struct, frozen=True):
    invalid: bool  # True: a SyntaxError in JavaScript; False: valid, but not translatable
    problems: tuple[Problem, ...]  # one when invalid; every untranslatable construct otherwise


Translation = Translated | Refused


@functools.lru_cache(maxsize=4096)  # checks and the emitter ask per node; configs repeat patterns
def translate(pattern: str) -> Translation:
    for offset, c in enumerate(pattern):
        if is_surrogate(ord(c)):  # not Unicode text: JavaScript would see UTF-16 code units
            return Refused(
                False,
                (
                    Problem(
                        offset,
                        1,
                        "the pattern holds a lone surrogate, which is not a Unicode character",
                        "write the character itself or \\u{...}",
                    ),
                ),
            )
    parser = Parser(pattern)
    try:
        rust = parser.parse()
    except Invalid as error:
        return Refused(True, (error.problem,))
    if parser.unsupported:
        return Refused(False, tuple(sorted(parser.unsupported, key=lambda p: p.offset)))
    refusal = _rust_error(rust)
    if refusal is not None:
        too_big = "size limit" in refusal
        return Refused(
            False,
            (
                Problem(
                    0,
                    len(pattern),
                    "the pattern is too large for the model's linear-time engine"
                    if too_big
                    else f"the model's engine refuses the translation {rust!r}",
                    "use smaller repetition counts (a maxLength bounds the length), or fewer "
                    "nested repetitions"
                    if too_big
                    else "this is a bug in toolc: please report the pattern",
                ),
            ),
        )
    return Translated(rust)


def _rust_error(rust: str) -> str | None:
    """Why pydantic-core's Rust regex refuses the translation: its size limits, or else a bug in
    the translation (which is then refused, never emitted). pydantic-core is imported here,
    not with the module: a build whose edited tools hold no pattern never loads it (11 ms)."""
    from pydantic_core import SchemaError

    try:
        _compiled(rust)  # not kept: each translation is vetted once
    except SchemaError as error:
        return str(error).strip().splitlines()[-1].strip()
    return None


def model_pattern(pattern: str) -> str:
    """The pattern for a generated model's `Field(pattern=...)` under `regex_engine=
    "rust-regex"`; `toolc check` refuses every pattern this raises for."""
    found = translate(pattern)
    if isinstance(found, Refused):
        first = found.problems[0]
        raise ValueError(f"pattern {pattern!r} at offset {first.offset}: {first.message}")
    return found.pattern


def _compiled(rust: str) -> SchemaValidator:
    from pydantic_core import SchemaValidator, core_schema

    return SchemaValidator(core_schema.str_schema(pattern=rust, regex_engine="rust-regex"))


_validator = functools.lru_cache(maxsize=1024)(_compiled)  # search() asks again and again


def search(pattern: str, s: str) -> bool:
    """Whether `s` holds a match of `pattern` as the models read it (False for a pattern
    `check` refuses): for toolc's own uses, such as the mock server's values."""
    found = translate(pattern)
    if isinstance(found, Refused):
        return False
    from pydantic_core import ValidationError

    try:
        _validator(found.pattern).validate_python(s)
    except ValidationError:
        return False
    return True
