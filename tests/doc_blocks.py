"""The fenced examples of README.md and docs/*.md, classified so that tests/test_docs_examples.py
can check each one as a user would. The conventions, for whoever writes a page:

- A ```yaml block with a top-level `tools:` is a whole tools.yaml. `toolc check` must find it
  clean, or report exactly the diagnostics its lines announce with `# E: code` / `# W: code` at
  their end (the syntax of tests/fixtures/diagnostics; `code@column` pins the column).
- A ```yaml block with a top-level `tool_policies:` whose leading comments include
  `# tool_policies.yaml` (more words may follow) is the tool_policies.yaml of the nearest
  tools.yaml block above it on the page; the two are checked together, each file's lines
  announcing their own diagnostics.
- A block whose leading comments include `# fragment: KIND` is wrapped into a minimal tools.yaml
  (one query tool, `example`) and checked like one: `args_schema` (the block maps argument
  names to schemas), `returns` (the block is the schema of `returns`) or `tool` (the block is
  the keys of one tool). Announced lines and columns are the block's own.
- A block whose lines are all `# yaml-language-server: $schema=...` modelines must name a schema
  toolc publishes.
- A block whose leading comments include `# not-a-config: REASON` is not checked; the reason is
  required.

Leading comments are the comment lines before a block's first other line. Any other ```yaml
block cannot be classified, and the test fails naming it: none is skipped silently."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^```([\w-]*)\n(.*?)^```[ \t]*$", re.M | re.S)
TOP_KEY = re.compile(r"^([A-Za-z_][\w-]*):", re.M)
MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$")
FRAGMENT = re.compile(r"^#\s*fragment:\s*(\S+)\s*$")
NOT_A_CONFIG = re.compile(r"^#\s*not-a-config\b:?\s*(.*)$")
POLICIES = re.compile(r"^#\s*tool_policies\.yaml\b")

_TOOL = (
    "    version: 1.0.0\n    description: An example.\n    mcp_server: docs\n    tool_type: query\n"
)
# kind → (the wrapper above the block, the block's indentation in it)
WRAPPERS = {
    "args_schema": ("tools:\n  example:\n" + _TOOL + "    args_schema:\n", 6),
    "returns": ("tools:\n  example:\n" + _TOOL + "    returns:\n", 6),
    "tool": ("tools:\n  example:\n", 4),
}


@dataclass(frozen=True)
class Block:
    page: Path
    fence_line: int  # the line of the opening ``` in the page
    lang: str
    text: str

    @property
    def where(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.fence_line}"

    def leading_comments(self) -> list[str]:
        comments = []
        for line in self.text.splitlines():
            if not line.strip():
                continue
            if not line.lstrip().startswith("#"):
                break
            comments.append(line.strip())
        return comments


@dataclass
class ConfigFile:
    """One file of a checked case: the block, and where it sits in the file written."""

    block: Block
    prefix: str = ""  # wrapper lines above the block
    indent: int = 0

    def text(self) -> str:
        pad = " " * self.indent
        body = "".join(pad + line if line.strip() else line for line in self._lines())
        return self.prefix + body

    def _lines(self) -> list[str]:
        return self.block.text.splitlines(keepends=True)

    @property
    def line_offset(self) -> int:
        return self.prefix.count("\n")


@dataclass
class Case:
    """A config to check: tools.yaml, maybe tool_policies.yaml."""

    files: dict[str, ConfigFile] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return " + ".join(f.block.where for f in self.files.values())


@dataclass(frozen=True)
class Modeline:
    block: Block
    schemas: tuple[str, ...]  # the file names the modelines point at


@dataclass(frozen=True)
class NotAConfig:
    block: Block
    reason: str


def fenced_blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    return [
        Block(page, text.count("\n", 0, m.start()) + 1, m[1], m[2]) for m in FENCE.finditer(text)
    ]


def _directive(pattern: re.Pattern[str], comments: list[str]) -> re.Match[str] | None:
    return next((m for c in comments if (m := pattern.match(c))), None)


def classify(
    blocks: list[Block],
) -> tuple[list[Case], list[Modeline], list[NotAConfig], list[str]]:
    """The ```yaml blocks of one page, as cases to check, modelines and exempt blocks, and the
    problems of those that fit no convention."""
    cases: list[Case] = []
    modelines: list[Modeline] = []
    exempt: list[NotAConfig] = []
    problems: list[str] = []
    last_tools: Case | None = None
    for block in (b for b in blocks if b.lang in ("yaml", "yml")):
        comments = block.leading_comments()
        keys = TOP_KEY.findall(block.text)
        lines = [line.strip() for line in block.text.splitlines() if line.strip()]
        if (skip := _directive(NOT_A_CONFIG, comments)) is not None:
            if skip[1].strip():
                exempt.append(NotAConfig(block, skip[1].strip()))
            else:
                problems.append(f"{block.where}: `# not-a-config` needs a reason")
        elif (fragment := _directive(FRAGMENT, comments)) is not None:
            if fragment[1] not in WRAPPERS:
                problems.append(
                    f"{block.where}: unknown fragment kind {fragment[1]!r} "
                    f"(one of {', '.join(WRAPPERS)})"
                )
                continue
            prefix, indent = WRAPPERS[fragment[1]]
            cases.append(Case({"tools.yaml": ConfigFile(block, prefix, indent)}))
        elif "tools" in keys:
            last_tools = Case({"tools.yaml": ConfigFile(block)})
            cases.append(last_tools)
        elif "tool_policies" in keys:
            if _directive(POLICIES, comments) is None:
                problems.append(
                    f"{block.where}: a tool_policies.yaml block needs the leading comment "
                    "`# tool_policies.yaml` (it joins the tools.yaml block above it)"
                )
            elif last_tools is None or "tool_policies.yaml" in last_tools.files:
                problems.append(
                    f"{block.where}: no tools.yaml block above it on the page is free to join"
                )
            else:
                last_tools.files["tool_policies.yaml"] = ConfigFile(block)
        elif lines and all(MODELINE.match(line) for line in lines):
            found = tuple(Path(m[1]).name for line in lines if (m := MODELINE.match(line)))
            modelines.append(Modeline(block, found))
        else:
            problems.append(
                f"{block.where}: a yaml block that is neither a tools.yaml, a tool_policies.yaml, "
                "a `# fragment: KIND`, a modeline nor `# not-a-config: REASON`"
            )
    return cases, modelines, exempt, problems


def every_page() -> tuple[list[Case], list[Modeline], list[NotAConfig], list[str]]:
    cases, modelines, exempt, problems = [], [], [], []
    for page in PAGES:
        c, m, e, p = classify(fenced_blocks(page))
        cases += c
        modelines += m
        exempt += e
        problems += p
    return cases, modelines, exempt, problems
