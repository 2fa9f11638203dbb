"""A recursive-descent parser of ECMA-262 (2024) patterns under the `u` flag that writes, as it
goes, the Rust-regex pattern matching the same strings.

Rust's regex crate has no lookaround and no backreferences; those parse (so a pattern invalid
in JavaScript is still reported as invalid) but are recorded as unsupported. Captures mean
nothing to a test of the whole string, so every group becomes `(?:...)`."""

from __future__ import annotations

from toolc.validate.ecma_chars import (
    ANYTHING,
    CLASS_ESCAPES,
    DOT,
    NOTHING,
    Problem,
    character_escape,
    class_escape_set,
    class_items,
    invalid,
    is_surrogate,
    rust_char,
)
from toolc.validate.ecma_groups import GroupNames
from toolc.validate.ecma_properties import PropertyProblem, rust_property

MAX_DEPTH = 100  # nested groups; Rust's own limit on nesting is 250, Python's stack ~1000
_QUANTIFIERS = frozenset("*+?{")


class Parser:
    def __init__(self, pattern: str) -> None:
        self.p = pattern
        self.i = 0
        self.depth = 0
        self.groups = GroupNames(pattern)
        self.unsupported: list[Problem] = []
        self.where: list[tuple[int, int]] = []  # (disjunction, alternative) down to self.i
        self.disjunctions = 0

    def parse(self) -> str:
        out = self.disjunction()
        if self.i < len(self.p):  # only a ')' stops a top-level disjunction early
            raise invalid(self.i, 1, "unmatched ')'", "remove it, or escape it as \\)")
        self.groups.check_references(self.unsupported)
        return out

    def peek(self, n: int = 1) -> str:
        return self.p[self.i : self.i + n]

    def unsupported_at(self, start: int, message: str, hint: str) -> None:
        self.unsupported.append(Problem(start, max(self.i - start, 1), message, hint))

    def disjunction(self) -> str:
        self.disjunctions += 1
        me = self.disjunctions
        self.where.append((me, 0))
        parts = [self.alternative()]
        while self.peek() == "|":
            self.i += 1
            self.where[-1] = (me, len(parts))
            parts.append(self.alternative())
        self.where.pop()
        return "|".join(parts)

    def alternative(self) -> str:
        out = []
        while self.i < len(self.p) and self.peek() not in "|)":
            out.append(self.term())
        return "".join(out)

    def term(self) -> str:
        start, c = self.i, self.peek()
        assertion = None
        if c in "^$":
            self.i += 1
            assertion = c
        elif self.peek(2) in ("\\b", "\\B"):
            self.i += 2
            # ECMA's word characters are ASCII; Rust's ASCII boundary agrees at every boundary
            # between code points, and never reports an empty match inside one.
            assertion = f"(?-u:{self.p[start : self.i]})"
        elif self.peek(3) in ("(?=", "(?!") or self.peek(4) in ("(?<=", "(?<!"):
            self.group_body(start, 3 if self.peek(3) in ("(?=", "(?!") else 4)
            self.unsupported_at(
                start,
                "lookaround assertions cannot be expressed by a linear-time engine",
                "rewrite the pattern without (?=, (?!, (?<= or (?<!, or check it in the handler",
            )
            assertion = ""
        if assertion is not None:
            if self.quantifier_ahead():
                raise invalid(self.i, 1, "an assertion cannot be repeated", "remove the quantifier")
            return assertion
        atom = self.atom()
        if self.quantifier_ahead():
            return f"(?:{atom}){self.quantifier()}" if atom == "" else atom + self.quantifier()
        return atom

    def quantifier_ahead(self) -> bool:
        c = self.peek()
        return c in _QUANTIFIERS and c != "" and (c != "{" or self.braces() is not None)

    def braces(self) -> tuple[int, int, str] | None:
        """The `{n}`, `{n,}` or `{n,m}` at self.i: (its length, n, its text) or None."""
        j, p = self.i + 1, self.p
        k = j
        while k < len(p) and p[k] in "0123456789":
            k += 1
        if k == j:
            return None
        if p[k : k + 1] == ",":
            k += 1
            while k < len(p) and p[k] in "0123456789":
                k += 1
        if p[k : k + 1] != "}":
            return None
        text = p[self.i : k + 1]
        return len(text), int(text[1:-1].partition(",")[0]), text

    def quantifier(self) -> str:
        start, c = self.i, self.peek()
        if c == "{":
            found = self.braces()
            assert found is not None
            length, low, text = found
            high = text[1:-1].partition(",")[2]
            if high and int(high) < low:
                raise invalid(start, length, "numbers out of order in {n,m}", "write {m,n}")
            self.i += length
            text = "{" + ",".join(str(int(n)) if n else "" for n in text[1:-1].split(",")) + "}"
        else:
            self.i += 1
            text = c
        if self.peek() == "?":
            self.i += 1
            text += "?"
        return text

    def atom(self) -> str:
        start, c = self.i, self.peek()
        if c == ".":
            self.i += 1
            return DOT
        if c == "(":
            return self.group(start)
        if c == "[":
            return self.char_class()
        if c == "\\":
            return self.atom_escape()
        if c in "*+?" or (c == "{" and self.braces() is not None):
            raise invalid(start, 1, f"nothing to repeat before '{c}'", f"escape it as \\{c}")
        if c in "{}]":
            message = f"a lone '{c}' is not allowed under the u flag"
            raise invalid(start, 1, message, f"escape it as \\{c}")
        self.i += 1
        return self.literal(start, ord(c))

    def literal(self, start: int, cp: int, in_class: bool = False) -> str:
        if is_surrogate(cp):
            self.unsupported_at(
                start,
                "a lone surrogate can only match strings that are not valid Unicode, which the "
                "model refuses before any pattern",
                "under the u flag a pattern sees code points: write the character itself, "
                "\\u{1F600} or a range such as [\\u{10000}-\\u{10FFFF}]",
            )
            return NOTHING
        return rust_char(cp, in_class)

    def group(self, start: int) -> str:
        if self.peek(3) == "(?:":
            return f"(?:{self.group_body(start, 3)})"
        if self.peek(3) == "(?<":
            self.i += 2
            at = self.i
            name = self.group_name()
            self.groups.define(at, name, tuple(self.where), self.unsupported)
            return f"(?:{self.group_body(start, 0)})"
        if self.peek(2) == "(?":
            opener = self.groups.modifiers(start)  # or raises: no other (? group exists
            body = self.group_body(start, opener)
            self.unsupported_at(
                start,
                "inline modifiers such as (?i:...) are ES2025: engines before it (Node 20 among "
                "them) refuse the pattern",
                "spell the cases out, e.g. [Aa] instead of (?i:a)",
            )
            return f"(?:{body})"
        self.groups.define(start, None, (), self.unsupported)
        return f"(?:{self.group_body(start, 1)})"

    def group_body(self, start: int, opener: int) -> str:
        self.i += opener
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise invalid(start, 1, "groups nested too deep", f"nest at most {MAX_DEPTH} groups")
        inner = self.disjunction()
        self.depth -= 1
        if self.peek() != ")":
            raise invalid(start, 1, "this group is never closed", "add the missing ')'")
        self.i += 1
        return inner

    def group_name(self) -> str:
        name, self.i = self.groups.read_name(self.i)
        return name

    def atom_escape(self) -> str:
        start, c = self.i, self.peek(2)[1:]
        if c in "123456789" and c:
            self.i += 1
            while self.peek().isascii() and self.peek().isdigit():
                self.i += 1
            self.groups.refer(start, int(self.p[start + 1 : self.i]), self.i - start)
            return ""
        if c == "k":
            self.i += 2
            if self.peek() != "<":
                raise invalid(start, 2, "\\k must be followed by <name>", "write \\k<name>")
            name = self.group_name()
            self.groups.refer(start, name, self.i - start)
            return ""
        return self.class_escape(in_class=False)

    def class_escape(self, in_class: bool) -> str:
        """`\\d`-like sets and `\\p{...}` (as Rust sets), or one escaped character."""
        start, c = self.i, self.peek(2)[1:]
        if c in CLASS_ESCAPES and c:
            self.i += 2
            return class_items(c) if in_class else class_escape_set(c)
        if c in ("p", "P") and c:
            return self.property(start, c == "P", in_class)
        cp, self.i = character_escape(self.p, start, in_class)
        return self.literal(start, cp)

    def property(self, start: int, negated: bool, in_class: bool) -> str:
        end = self.p.find("}", start + 3) if self.p[start + 2 : start + 3] == "{" else -1
        if end == -1:
            raise invalid(start, 2, "\\p must be followed by {name}", "write \\p{L} or \\p{gc=Lu}")
        self.i = end + 1
        try:
            body = rust_property(self.p[start + 3 : end])
        except PropertyProblem as problem:
            if problem.invalid:
                raise invalid(start, self.i - start, str(problem), problem.hint) from None
            self.unsupported_at(start, str(problem), problem.hint)
            return NOTHING
        if body is None:  # the surrogates: no string the model sees holds one, Rust has no name
            if in_class:
                return ANYTHING[1:-1] if negated else ""
            return ANYTHING if negated else NOTHING
        return ("\\P{" if negated else "\\p{") + body + "}"

    def char_class(self) -> str:
        start = self.i
        self.i += 1
        negated = self.peek() == "^"
        self.i += negated
        items: list[str] = []
        while self.peek() != "]":
            if self.i >= len(self.p):
                raise invalid(start, 1, "this class is never closed", "add the missing ']'")
            low_at = self.i
            low = self.class_atom()
            if self.peek() == "-" and self.peek(2) != "-]" and self.i + 1 < len(self.p):
                self.i += 1
                high_at = self.i
                high = self.class_atom()
                if isinstance(low, str) or isinstance(high, str):
                    raise invalid(
                        low_at,
                        self.i - low_at,
                        "a class escape such as \\d cannot end a range",
                        "escape the '-' as \\- to mean the character itself",
                    )
                if low > high:
                    raise invalid(low_at, self.i - low_at, "range out of order", "swap the ends")
                if is_surrogate(low) or is_surrogate(high):
                    items.append(self.literal(low_at if is_surrogate(low) else high_at, 0xD800))
                else:
                    items.append(rust_char(low, True) + "-" + rust_char(high, True))
            else:
                items.append(low if isinstance(low, str) else self.literal(low_at, low, True))
        self.i += 1
        items = [item for item in items if item]  # \p{Cs} adds nothing
        if not items:
            return ANYTHING if negated else NOTHING
        return ("[^" if negated else "[") + "".join(items) + "]"

    def class_atom(self) -> int | str:
        """One member of a class: a code point, or (for `\\d` and the like) a Rust set."""
        if self.peek() != "\\":
            self.i += 1
            return ord(self.p[self.i - 1])
        start = self.i
        c = self.peek(2)[1:]
        if (c in CLASS_ESCAPES or c in ("p", "P")) and c:
            return self.class_escape(in_class=True)
        cp, self.i = character_escape(self.p, start, in_class=True)
        return cp
