"""The version guard: each tool against what it was (the snapshot, or the `--against` baseline),
before anything is written. A changed contract needs a higher version; under `bump_policy:
semver` (the default) at least the level its changes call for (docs/evolution.md), except for
the breaks `accepted_breaks:` records for exactly this transition. Removing a tool needs such
an entry too."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import msgspec

from toolc.contract.semver import Version
from toolc.contract.snapshot import Entry
from toolc.diagnostics import Diagnostic, Note, Span, diag
from toolc.evolution.findings import breaking_step, findings_for_tool
from toolc.evolution.verdict import accepts, judge
from toolc.model import Project
from toolc.model.tools_file import AcceptedBreak

Contract = Mapping[str, object]


class Before(msgspec.Struct, frozen=True):
    """A tool as it was: its version, its contract fingerprint, and (when the baseline has it)
    its contract document, for classifying the change: None when no document at hand is the
    one the fingerprint names."""

    version: str
    contract: str
    document: Callable[[], Contract | None]
    # Known from the last output only, the snapshot having no line for it (a line lost in a
    # merge, the file deleted): its changes are judged, its absence is no removal (the
    # snapshot may be an older one put back, from before the tool was added).
    unrecorded: bool = False
    # Its `mcp_server` (None: not recorded, a snapshot line older than decision 0144).
    server: str | None = None


class Policy(msgspec.Struct, frozen=True):
    bump: str  # "semver" | "any"
    accepted: tuple[tuple[AcceptedBreak, Span], ...]


def policy_of(project: Project) -> Policy:
    spans = project.spans
    accepted = tuple(
        (entry, spans.tool(("accepted_breaks", i)))
        for i, entry in enumerate(project.accepted_breaks)
    )
    return Policy(project.bump_policy, accepted)


def _accepts(policy: Policy, tool: str, old: str, new: str, rule: str) -> bool:
    return accepts((e for e, _ in policy.accepted), tool, old, new, rule)


# Why a change is judged breaking when the contract it replaced is not at hand, and how to
# have it classified.
UNSEEN = "the last build's contract document of this tool is missing or not the snapshot's"
UNSEEN_HINT = (
    "restore the last build's output (its contracts/ folder), or compare with a baseline that "
    "has it (`--against` a git revision or the previous config) for the bump the change really "
    "needs"
)


def _semver_minimum(
    name: str,
    before: Before,
    after: Contract | None,
    policy: Policy,
    new_version: str,
    same_contract: bool = False,
) -> tuple[Version, list[str]] | None:
    """The smallest version the change allows, and the rules that set it (None: none).
    `same_contract`: the fingerprint is the snapshot's, so only the server changed."""
    from toolc.evolution.compare import compare_all

    if after is None:
        return None
    old = before.document()
    if old is None and same_contract:  # the new document is the old one but for its server
        old = after
    if old is not None and before.server is not None:
        old = {**old, "mcp_server": before.server}  # the snapshot's record decides (0144)
    if old is None:
        # A change that cannot be classified is breaking, as an undecided one is (never a
        # patch): an output deleted or hand-edited must not let a break through as a patch.
        was = Version.parse(before.version)
        return was.bumped(breaking_step(was)), [UNSEEN]
    # compare_all, not compare_tool: a change of toolc's envelope counts for every tool.
    found = findings_for_tool(compare_all({name: old}, {name: after}), name)
    accepted = (e for e, _ in policy.accepted)
    verdict = judge(name, found, before.version, new_version, policy.bump, accepted)
    if verdict.minimum is None:
        return None
    return Version.parse(verdict.minimum), verdict.forcing


def check_versions(
    spans: Mapping[str, Span],
    before: Mapping[str, Before],
    new: Mapping[str, Entry],
    documents: Callable[[str], Contract | None],
    policy: Policy,
    removed_span: Callable[[str], Span],
) -> Iterator[Diagnostic]:
    """Each tool against what it was. `documents(tool)`: the tool's new contract document."""
    transitions: dict[str, tuple[str, str]] = {}
    returned: set[str] = set()  # declared again after their recorded removal
    for name, entry in new.items():
        was = before.get(name)
        back = returning(policy, name) if was is None else None
        if was is not None:
            transitions[name] = (was.version, entry.version)
            yield from _changed(name, was, entry, spans[name], documents, policy)
        elif back is not None:
            returned.add(name)
            yield from _returned(name, entry, spans[name], back)
    for name, was in before.items():
        if name not in new and not was.unrecorded:
            transitions[name] = (was.version, "removed")
            yield from _removed(name, was, removed_span(name), policy)
    yield from _stale(policy, transitions, new, returned)


def _changed(
    name: str,
    was: Before,
    entry: Entry,
    span: Span,
    documents: Callable[[str], Contract | None],
    policy: Policy,
) -> Iterator[Diagnostic]:
    previous, current = Version.try_parse(was.version), Version.parse(entry.version)
    if previous is not None and current < previous:
        yield diag(
            "version-decreased",
            span,
            f"tool '{name}' went from version {previous} down to {current}",
            f"versions only go up: use at least {previous}",
        )
        return
    moved = was.server is not None and entry.server is not None and was.server != entry.server
    same = was.contract == entry.contract
    if same and not moved:
        return
    if previous is None or current <= previous:
        minimum = previous.bumped("patch") if previous is not None else current
        forcing: list[str] = []
        if previous is not None and policy.bump == "semver":
            # Name the bump the change needs, not just the next patch: one round, not two.
            needed = _semver_minimum(name, was, documents(name), policy, entry.version, same)
            if needed is not None:
                minimum, forcing = needed
        rules = f" ({', '.join(forcing)})" if forcing else ""
        change = _change(was, entry, same) + (
            rules if same else f"{rules} ({was.contract} → {entry.contract})"
        )
        yield diag(
            "version-not-bumped",
            span,
            f"tool '{name}' {change} but kept version {current}; bump it to at least {minimum}",
            UNSEEN_HINT if UNSEEN in forcing else None,
        )
        return
    if policy.bump != "semver":
        return
    needed = _semver_minimum(name, was, documents(name), policy, entry.version, same)
    if needed is not None and not current.satisfies(needed[0]):
        minimum, forcing = needed
        yield diag(
            "version-bump-too-small",
            span,
            f"tool '{name}' {_change(was, entry, same)} ({', '.join(forcing)}) and went from "
            f"{previous} to {current}; the change needs at least {minimum}",
            UNSEEN_HINT
            if UNSEEN in forcing
            else f"bump it to {minimum} (`toolc bump --write`), or record the break under "
            "`accepted_breaks:` if a smaller release is intended",
        )


def _change(was: Before, entry: Entry, same: bool) -> str:
    """What happened to the tool, as the guard's messages say it: the server is no part
    of the fingerprint (0144), so a move alone is named as such."""
    if same:
        return f"moved from mcp_server '{was.server}' to '{entry.server}'"
    return "changed its contract"


def _removed(name: str, was: Before, span: Span, policy: Policy) -> Iterator[Diagnostic]:
    if not _accepts(policy, name, was.version, "removed", "tool-removed"):
        yield diag(
            "tool-removed",
            span,
            f"tool '{name}' (version {was.version}) is no longer declared",
            f"removing a tool breaks its callers: record it under `accepted_breaks:` "
            f"(tool: {name}, from: {was.version}, to: removed, rule: tool-removed, reason: "
            "...), or declare it again",
        )


def _removal(policy: Policy, name: str) -> tuple[Version, Span] | None:
    """The highest version at which an `accepted_breaks:` entry records `name`'s removal,
    and where: the only record of a retired name's last version once the snapshot has
    dropped its line."""
    removals = [
        (version, span)
        for entry, span in policy.accepted
        if entry.tool == name and entry.to == "removed" and entry.rule == "tool-removed"
        if (version := Version.try_parse(entry.from_)) is not None
    ]
    return max(removals, key=lambda found: found[0]) if removals else None


class Returning(msgspec.Struct, frozen=True):
    """A tool declared again after its recorded removal: the version it was removed at,
    the level of release it must come back with, the smallest such version, and where the
    removal is recorded."""

    removed: Version
    level: str
    minimum: Version
    where: Span

    def allows(self, version: str) -> bool:
        current = Version.parse(version)
        return current > self.removed and current.satisfies(self.minimum)


def returning(policy: Policy, name: str) -> Returning | None:
    """The floor of a tool declared again under a name whose removal is recorded (None:
    none is): callers knew the removed version's contract, and the one returning cannot be
    compared with it (its document went with the tool), so under semver it is a breaking
    change. `diff` and `bump` read it as the guard does."""
    removal = _removal(policy, name)
    if removal is None:
        return None
    removed, where = removal
    level = breaking_step(removed) if policy.bump == "semver" else "patch"
    return Returning(removed, level, removed.bumped(level), where)


def _returned(name: str, entry: Entry, span: Span, back: Returning) -> Iterator[Diagnostic]:
    if back.allows(entry.version):
        return
    removed, minimum, where = back.removed, back.minimum, back.where
    current = Version.parse(entry.version)
    yield diag(
        "version-decreased",
        span,
        f"tool '{name}' was removed at version {removed} and is declared again at "
        f"{current}; a tool that comes back needs at least {minimum}",
        "bump it; or, if the removal never shipped, delete its `accepted_breaks:` entry",
        notes=(Note(where, "the removal is recorded here"),),
    )


def _stale(
    policy: Policy,
    transitions: Mapping[str, tuple[str, str]],
    new: Mapping[str, Entry],
    returned: set[str],
) -> Iterator[Diagnostic]:
    """`accepted_breaks:` entries that match no transition of this build (`returned`: the
    tools declared again after their recorded removal, whose entry this build read)."""
    for accepted, span in policy.accepted:
        now = transitions.get(accepted.tool)
        # Shipped: the snapshot already records the `to` side (the build that shipped the
        # break ran, and the PR carrying both is still open). Stale once the tool moves on.
        # A removal's entry also holds while the tool comes back (the guard read it).
        shipped = (
            (accepted.to == "removed" and (accepted.tool not in new or accepted.tool in returned))
            if now is None
            else now == (accepted.to, accepted.to)
        )
        if now != (accepted.from_, accepted.to) and not shipped:
            state = (
                "has no earlier version"
                if now is None
                else f"stays at {now[1]}"
                if now[0] == now[1]
                else f"goes from {now[0]} to {now[1]}"
            )
            yield diag(
                "accepted-break-stale",
                span,
                f"accepted break {accepted.rule} of '{accepted.tool}' ({accepted.from_} → "
                f"{accepted.to}) matches nothing: the tool {state}",
                "remove the entry: it served its release",
            )
