"""The YAML text of an imported config, which toolc's own loader (YAML 1.2 core schema) reads
back as exactly the values written: a string that a YAML 1.2 reader could type otherwise
(`1e3`, `0o14`, `yes`, `null`) is quoted. Each tool and type is rendered on its own, so the
lines each one spans are known: the compiler's findings in them name their tool."""

from __future__ import annotations

import re
from typing import Any

import yaml

# What YAML 1.2's core schema reads as a number, a boolean or null (PyYAML quotes what YAML 1.1
# reads so, which is not the same set: `1e3` and `0o14` are strings to it).
_CORE_12 = re.compile(
    r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
    r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)|true|True|TRUE|false|False|FALSE|null|Null|NULL|~|"
)


class _Dumper(yaml.SafeDumper):
    pass


# NEL, LINE SEPARATOR, PARAGRAPH SEPARATOR: line breaks to PyYAML (YAML 1.1), which writes
# them raw, as breaks, in a plain, quoted or block scalar; YAML 1.2 (toolc's reader) folds such a
# break to a space. Escaped in a double-quoted scalar (`\N`, `\L`, `\P`) they read back as
# themselves in both.
_BREAKS_IN_11 = frozenset("\x85\u2028\u2029")


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if not _BREAKS_IN_11.isdisjoint(value):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    if "\n" in value.strip("\n"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    style = '"' if _CORE_12.fullmatch(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def _block(value: Any, indent: int) -> list[str]:
    text = yaml.dump(
        value,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
    )
    pad = " " * indent
    return [pad + line if line else line for line in text.splitlines()]


def section(
    key: str, entries: dict[str, Any], comments: dict[str, dict[str, str]], before: int
) -> tuple[list[str], dict[str, tuple[int, int]]]:
    """`key:` and its entries, to follow `before` lines; the lines (1-based, inclusive) of each
    entry. `comments` puts a `# ...` line above a key of an entry (a placeholder's mark)."""
    lines = [f"{key}:"]
    spans: dict[str, tuple[int, int]] = {}
    for name, body in entries.items():
        first = before + len(lines) + 1
        for line in _block({name: body}, 2):
            field = line.strip().split(":", 1)[0]
            mark = comments.get(name, {}).get(field)
            if mark is not None and line.startswith("    ") and not line.startswith("     "):
                lines.append(f"    # {mark}")
            lines.append(line)
        spans[name] = (first, before + len(lines))
    return lines, spans
