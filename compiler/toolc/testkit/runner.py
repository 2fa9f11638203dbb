"""The kit's cases, run against the user's handlers served in-process: the package's own
`create_server(handlers, server)` reached through the SDK's `mcp.Client` (no subprocess, no
socket). Per served tool: generated valid arguments (and, for a multi-item tool, one item
and several items), near-miss invalid arguments, and for a tool that asks for confirmation
the decline path (in both protocol eras: the 2026-07-28 retry and the 2025-11-25
elicitation request) and the accept path."""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

import anyio
import msgspec
from mcp import Client
from msgspec import field

from toolc.testkit.arguments import (
    base_arguments,
    fullest_arguments,
    is_valid,
    items_argument,
    near_misses,
    valid_arguments,
    with_items,
)
from toolc.testkit.loading import KitError, Target, handler_name
from toolc.testkit.observers import Asker, Counting, Logged
from toolc.testkit.verdicts import (
    Failure,
    broken,
    code,
    multi_item_problems,
    outcome,
    seal_problems,
)

# The multi-item outcomes the guide's checklist (§10) wants tested.
CHECKLIST = ("SUCCESS", "PARTIAL_SUCCESS", "FAILED", "secondary failure")


class Report(msgspec.Struct):
    cases: list[tuple[str, str]] = field(default_factory=list)  # (tool, case), as run
    failures: list[Failure] = field(default_factory=list)
    outcomes: dict[str, Counter[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # Tools no case reached: no arguments could be made and none were given (not a pass)
    untested: list[str] = field(default_factory=list)


class Tool(msgspec.Struct):
    descriptor: dict[str, Any]
    spec: Any
    handler: str
    validator: str | None  # the pre-validator's handler, when the tool has one

    @property
    def name(self) -> str:
        return str(self.descriptor["name"])


class Kit:
    def __init__(
        self, target: Target, handlers: object, server: str, seed: int, examples: int,
        extra: Mapping[str, list[Any]], timeout: float,
    ) -> None:  # fmt: skip
        specs = target.registry
        self.handlers = Counting(handlers, [handler_name(s) for s in specs.values()])
        try:
            self.app = target.server_module.create_server(self.handlers, server)
        except (ValueError, KeyError) as exc:  # the runtime names what the handlers lack
            raise KitError(f"cannot serve {server!r} with these handlers: {exc}") from exc
        self.tools = []
        self.proxied = []  # answered by their origins: nothing of the user's to test
        for d in target.descriptors:
            spec = specs[d["name"]]
            if not spec.enabled or spec.mcp_server != server:
                continue
            if getattr(spec, "proxy", None):
                self.proxied.append(d["name"])
                continue
            pv = spec.pre_validation
            self.tools.append(
                Tool(d, spec, handler_name(spec), pv and handler_name(specs[pv.tool]))
            )
        self.seed, self.examples, self.extra = seed, examples, extra
        self.timeout = timeout
        unknown = sorted(set(extra) - {t.name for t in self.tools})
        if unknown:
            raise KitError(f"--cases: no served tool named {', '.join(unknown)}")
        self.asker, self.logged, self.report = Asker(), Logged(), Report()
        self.report.notes += [f"{name}: proxied to its origin; not tested" for name in self.proxied]
        self.package = target.package
        self.era = ""  # the protocol version of the connection in use

    async def run(self) -> Report:
        log = logging.getLogger(self.package)
        log.addHandler(self.logged)
        propagate, log.propagate = log.propagate, False  # the kit reports what matters
        try:
            for mode in ("auto", "legacy"):  # 2026-07-28 in-process, then 2025-11-25
                async with Client(self.app, mode=mode, elicitation_callback=self.asker) as client:
                    self.era = str(client.session.protocol_version)
                    for tool in self.tools:
                        await (self._tool if mode == "auto" else self._legacy)(client, tool)
        finally:
            log.removeHandler(self.logged)
            log.propagate = propagate
        for tool in self.tools:
            if not self.handlers.calls[tool.handler] and tool.name not in self.report.untested:
                self.report.notes.append(
                    f"{tool.name}: its handler never ran (every call was refused before it); "
                    "give arguments its pre-validator accepts with --cases"
                )
            seen = self.report.outcomes.get(tool.name)
            unseen = [c for c in CHECKLIST if seen is not None and c not in seen]
            if unseen:
                self.report.notes.append(
                    f"{tool.name}: the guide's checklist case(s) {', '.join(unseen)} not seen; "
                    "add arguments that produce them with --cases"
                )
        return self.report

    async def _legacy(self, client: Client, tool: Tool) -> None:
        """The 2025-11-25 era: the first valid call again, and the confirmation paths."""
        schema = tool.descriptor["inputSchema"]
        try:
            args = base_arguments(schema)
        except ValueError:
            return  # noted by the first era
        items = items_argument(schema) if tool.spec.multi_item else None
        await self._valid(client, tool, f"valid arguments #1 ({self.era})", args, items)
        if tool.spec.require_confirmation:
            await self._confirmation(client, tool)

    async def _call(
        self, client: Client, tool: Tool, case: str, args: Any
    ) -> dict[str, Any] | None:
        """One call, its seal checked; None (a failure recorded) when it broke."""
        self.report.cases.append((tool.name, case))
        try:
            with anyio.fail_after(self.timeout):
                result = await client.call_tool(tool.name, args)
        except TimeoutError:
            self._fail(tool, case, args, "an answer", f"none within {self.timeout:g} s")
            return None
        except Exception as exc:  # the client refused the answer, or the call broke
            said = f"{type(exc).__name__}: {exc}"
            if str(exc).startswith("Invalid schema for tool"):  # the schema, not the handler
                expected = "an outputSchema the Python MCP client accepts (see `toolc check`)"
                self._fail(tool, case, args, expected, said)
            else:
                self._fail(tool, case, args, "a sealed answer", said)
            return None
        problems = seal_problems(tool.descriptor, result)
        if problems:
            self._fail(
                tool, case, args, "an answer the published schema allows", "; ".join(problems)
            )
            return None
        envelope: dict[str, Any] = result.structured_content or {}
        return envelope

    def _fail(self, tool: Tool, case: str, args: Any, expected: str, got: str) -> None:
        self.report.failures.append(Failure(tool.name, case, args, expected, got))

    def _broken(self, tool: Tool, case: str, args: Any, envelope: Mapping[str, Any]) -> bool:
        """Fail the case when the answer says the handler broke (with what it logged)."""
        wrong = broken(envelope)
        if wrong is not None:
            expected = "a success or a declared domain failure"
            self._fail(tool, case, args, expected, wrong + self.logged.last())
        return wrong is not None

    async def _tool(self, client: Client, tool: Tool) -> None:
        schema = tool.descriptor["inputSchema"]
        rng = random.Random(f"{self.seed}:{tool.name}")
        name = items_argument(schema) if tool.spec.multi_item else None
        try:
            valid = valid_arguments(schema, rng, self.examples)
        except ValueError as exc:  # the user's own cases still run; without them, untested
            mine = self.extra.get(tool.name, [])
            self.report.notes.append(
                f"{tool.name}: no arguments generated ({exc}); "
                + ("only your cases run" if mine else "not tested: give its arguments with --cases")
            )
            if not mine:
                self.report.untested.append(tool.name)
            await self._yours(client, tool, [], name)
            return
        cases = [(f"valid arguments #{n + 1}", a) for n, a in enumerate(valid)]
        if name is not None:
            for n, label in ((1, "one item"), (3, "several items")):
                made = with_items(schema, valid[0], name, n, rng.randint(1, 40))
                if made is None:
                    self.report.notes.append(f"{tool.name}: could not make {label}; not tested")
                else:
                    cases.append((label, made))
        await self._yours(client, tool, cases, name)
        for what, args in near_misses(schema, fullest_arguments(schema, valid[0])):
            await self._refused(client, tool, f"near miss: {what}", args)
        if tool.spec.require_confirmation:
            await self._confirmation(client, tool)

    async def _yours(
        self, client: Client, tool: Tool, cases: list[tuple[str, Any]], items: str | None
    ) -> None:
        """`cases`, then the user's own arguments: a valid one checked like them, an
        invalid one refused like a near miss."""
        schema = tool.descriptor["inputSchema"]
        for n, args in enumerate(self.extra.get(tool.name, [])):
            if is_valid(args, schema, schema):
                cases.append((f"your case #{n + 1}", args))
            else:
                await self._refused(client, tool, f"your case #{n + 1} (invalid)", args)
        for case, args in cases:
            await self._valid(client, tool, case, args, items)

    async def _valid(
        self, client: Client, tool: Tool, case: str, args: Any, items: str | None
    ) -> None:
        self.asker.action, self.asker.asked, self.logged.records = "accept", 0, []
        before = self.handlers.calls[tool.handler]
        envelope = await self._call(client, tool, case, args)
        if envelope is None:
            return
        if self._broken(tool, case, args, envelope):
            return
        ran = self.handlers.calls[tool.handler] - before
        if envelope.get("ok") and ran != 1:
            self._fail(tool, case, args, "the handler run once", f"it ran {ran} time(s)")
        if envelope.get("ok") and tool.spec.require_confirmation and self.asker.asked != 1:
            self._fail(tool, case, args, "one confirmation question", f"{self.asker.asked} asked")
        if items is not None:
            sent = self._resolved(tool, args, ran)[items]
            for problem in multi_item_problems(tool.name, sent, envelope):
                self._fail(tool, case, args, "the multi-item guide's per-item evidence", problem)
            self.report.outcomes.setdefault(tool.name, Counter())[outcome(envelope)] += 1

    def _resolved(self, tool: Tool, args: Any, ran: int) -> Any:
        """The arguments the handler received: what the pre-validator resolved (the guide's
        canonical items, which results name), else what was sent."""
        received = self.handlers.received.get(tool.handler)
        dump = getattr(received, "model_dump", None)
        if tool.validator is None or not ran or dump is None:
            return args
        return {**args, **dump(mode="json", by_alias=True, exclude_unset=True)}

    async def _refused(self, client: Client, tool: Tool, case: str, args: Any) -> None:
        before = self.handlers.calls.copy()
        envelope = await self._call(client, tool, case, args)
        if envelope is None:
            return
        if code(envelope) != "VALIDATION_ERROR":
            got = f"ok={envelope.get('ok')} code={code(envelope)}"
            self._fail(tool, case, args, "VALIDATION_ERROR", got)
        if self.handlers.calls != before:
            got = f"calls {dict(self.handlers.calls - before)}"
            self._fail(tool, case, args, "no handler called", got)

    async def _confirmation(self, client: Client, tool: Tool) -> None:
        args = base_arguments(tool.descriptor["inputSchema"])
        for action, done in (("decline", "declined"), ("accept", "accepted")):
            case = f"confirmation {done} ({self.era})"
            self.asker.action, self.asker.asked, self.logged.records = action, 0, []
            before = self.handlers.calls[tool.handler]
            envelope = await self._call(client, tool, case, args)
            if envelope is None:
                continue
            ran = self.handlers.calls[tool.handler] - before
            if self.asker.asked == 0:
                if code(envelope) == "PRE_VALIDATION_FAILED":
                    self._broken(tool, case, args, envelope)
                elif code(envelope) != "PRE_VALIDATION_REJECTED":
                    got = f"none asked; {outcome(envelope)}"
                    self._fail(tool, case, args, "a confirmation question", got)
                else:  # the pre-validator refused the call: no question to answer
                    self.report.notes.append(f"{tool.name}: {case} not reached ({code(envelope)})")
            elif action == "decline" and (code(envelope) != "CONFIRMATION_DECLINED" or ran):
                got = f"code={code(envelope)}, the handler ran {ran} time(s)"
                self._fail(tool, case, args, "CONFIRMATION_DECLINED, the handler never called", got)
            elif action == "accept" and ran != 1:
                got = f"it ran {ran} time(s); {outcome(envelope)}"
                self._fail(tool, case, args, "the handler run once", got)
            elif action == "accept":
                self._broken(tool, case, args, envelope)


def run(
    target: Target, handlers: object, server: str, seed: int, examples: int,
    extra: Mapping[str, list[Any]] | None = None, timeout: float = 30.0,
) -> Report:  # fmt: skip
    """Every case against `handlers`; `extra`: the user's own arguments, by tool;
    `timeout`: seconds a call may take before it fails."""
    kit = Kit(target, handlers, server, seed, examples, extra or {}, timeout)
    return anyio.run(kit.run)
