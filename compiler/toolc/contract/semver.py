"""Semantic versions (semver 2.0.0): parsing, precedence, and the next version of a given level."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from functools import total_ordering

_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?"
)


@total_ordering
@dataclass(frozen=True, slots=True)
class Version:
    major: int
    minor: int
    patch: int
    prerelease: tuple[str, ...] = ()
    build: str = ""

    @classmethod
    def try_parse(cls, text: str) -> Version | None:
        try:
            return cls.parse(text)
        except ValueError:
            return None

    @classmethod
    def parse(cls, text: str) -> Version:
        return _parsed(text)

    def _key(self) -> tuple[object, ...]:
        # A release ranks above its pre-releases; numeric identifiers rank below alphanumeric
        # ones and compare as numbers (semver 2.0.0, item 11). Build metadata is ignored.
        pre: tuple[object, ...] = tuple(
            (0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.prerelease
        )
        return (self.major, self.minor, self.patch, 0 if self.prerelease else 1, pre)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() < other._key()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        return text + (f"+{self.build}" if self.build else "")

    def bumped(self, level: str) -> Version:
        """The smallest release of `level` ("major", "minor", "patch") above this version.
        A pre-release is one of the release it leads to, so that release is already the
        step of its own level (as npm's `semver.inc` has it): 2.0.0-rc.1 → major 2.0.0,
        1.3.0-rc.1 → minor 1.3.0, 1.2.3-rc.1 → patch 1.2.3."""
        pre = bool(self.prerelease)
        if level == "major":
            if pre and self.minor == 0 and self.patch == 0:
                return Version(self.major, 0, 0)
            return Version(self.major + 1, 0, 0)
        if level == "minor":
            if pre and self.patch == 0:
                return Version(self.major, self.minor, 0)
            return Version(self.major, self.minor + 1, 0)
        if pre:
            return Version(self.major, self.minor, self.patch)
        return Version(self.major, self.minor, self.patch + 1)

    def satisfies(self, minimum: Version) -> bool:
        """Whether this version may carry a change that needs `minimum`: it is `minimum` or
        higher, or a pre-release of it or of a higher release (2.0.0-rc.1 may carry the
        break that needs 2.0.0: a pre-release promises no compatibility, semver item 9)."""
        release = (self.major, self.minor, self.patch)
        return self >= minimum or release >= (minimum.major, minimum.minor, minimum.patch)


@functools.lru_cache(maxsize=1 << 14)  # frozen values; a build parses each tool's version often
def _parsed(text: str) -> Version:
    m = _SEMVER.fullmatch(text)
    if m is None:
        raise ValueError(f"not a semantic version: {text!r}")
    pre = tuple(m[4].split(".")) if m[4] else ()
    return Version(int(m[1]), int(m[2]), int(m[3]), pre, m[5] or "")
