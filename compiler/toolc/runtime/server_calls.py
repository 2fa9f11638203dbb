"""One call of a served tool, step by step: arguments validated against the tool's
published schema, pre-validation, confirmation, the handler, sealing. Every failure is
sealed into the envelope; internals go to the server's log under an `errorId`."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import anyio
from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from .server_call_errors import (
    bad_key,
    cannot_ask,
    invalid_arguments,
    not_arguments,
    unresolved,
)
from .server_client import ClientChannel, ClientRequestUnavailable, LogLevels
from .server_confirm_step import confirm
from .server_confirmation import RequestStates
from .server_deadline import HandlerTimeout, cancel_requested, within
from .server_hooks import CallHooks
from .server_keys import (
    ITEM_KEYS,
    bad_request_key,
    canonical,
    derive_item_keys,
    original_key,
    received_keys,
)
from .server_metrics import mark_confirmed, start_call
from .server_sealing import (
    Sealed,
    framework_error,
    internal_error,
    seal_error,
    seal_failure,
    seal_return,
)
from .server_served import ServedTool
from .server_types import Reply, ToolContext, ToolFailure, ToolSpecLike
from .server_wire import to_wire

logger = logging.getLogger(__name__)


def handler_name(spec: ToolSpecLike) -> str:
    """The handler's method name: the tool's module name, a Python identifier."""
    return spec.module.rpartition(".")[2]


def _resolved_items(
    items_arg: str | None,
    sent: Mapping[str, Any] | None,
    decision: Mapping[str, Any] | None,
) -> list[Any] | None:
    """The items list a pre-validator put in place of the one sent, when it changed it
    (other items, or the same in another order); None when the handler gets those sent.
    """
    decided = decision.get("transaction_decision") if decision else None
    named = decided.get("resolved_arguments") if isinstance(decided, Mapping) else None
    if items_arg is None or not isinstance(named, Mapping):
        return None
    items = named.get(items_arg)
    was = (sent or {}).get(items_arg)
    if not isinstance(items, list) or canonical(items) == canonical(was):
        return None
    return items


def _keyed(sealed: Sealed, context: ToolContext, spec: ToolSpecLike) -> Sealed:
    """A multi-item answer with the keys of the items the handler received, in its
    order, in its `_meta`: a client sees whether its results line up with what it sent
    before it retries by position (decision 0156)."""
    if not spec.multi_item or not context.item_keys or "data" not in sealed.envelope:
        return sealed
    return replace(sealed, meta={ITEM_KEYS: list(context.item_keys)})


def _wire_args(args: BaseModel) -> dict[str, Any]:
    wire: dict[str, Any] = args.model_dump(
        mode="json", by_alias=True, exclude_unset=True
    )
    return wire


class ToolCalls:
    """The calls of the tools one server serves."""

    def __init__(
        self,
        tools: dict[str, ServedTool],
        validators: dict[str, ServedTool],
        states: RequestStates | None = None,
    ) -> None:
        self.tools = tools
        self.validators = validators
        self.states = states if states is not None else RequestStates()
        self.hooks = CallHooks()  # ceiling, metrics, audit: build_server sets them
        self.levels = LogLevels()  # logging/setLevel's, shared with its handler

    def context(
        self,
        tool: ServedTool,
        ctx: ServerRequestContext[Any, Any],
        confirmed: bool = False,
        decision: Mapping[str, Any] | None = None,
        arguments: Mapping[str, Any] | None = None,
        resolved: list[Any] | None = None,
    ) -> ToolContext:
        """`resolved`: the items a pre-validator put in place of those sent; their keys
        are derived as a client derives the keys of items it sends (decision 0156)."""
        meta: Mapping[str, Any] = dict(ctx.meta) if ctx.meta else {}
        key, item_keys = received_keys(meta, arguments or {}, tool.items_arg)
        if key is not None and resolved is not None:
            item_keys = tuple(derive_item_keys(original_key(meta, key), resolved))
        return ToolContext(
            tool=tool.spec.name,
            version=tool.spec.version,
            request_id=ctx.request_id,
            protocol_version=ctx.protocol_version,
            meta=meta,
            confirmed=confirmed,
            decision=decision,
            request=ctx,
            ceiling_bytes=tool.ceiling.ceiling_bytes if tool.ceiling else None,
            budget_bytes=tool.ceiling.budget_bytes if tool.ceiling else None,
            idempotency_key=key,
            item_keys=item_keys,
            channel=ClientChannel(ctx, self.levels),
        )

    async def call_tool(
        self, ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> dict[str, Any] | types.InputRequiredResult:
        tool = self.tools.get(params.name)
        if tool is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        watch = start_call()
        try:
            outcome = await self._call(tool, ctx, params)
        except MCPError:
            raise  # refusals the protocol defines (a request_state not ours)
        except BaseException as exc:  # nothing may escape to the client
            if isinstance(exc, anyio.get_cancelled_exc_class()) and cancel_requested():
                raise
            outcome = seal_error(tool.spec, internal_error(tool.spec, "Server failure"))
        # Final: an InputRequiredResult (a question for the user) answers nothing yet.
        if isinstance(outcome, Sealed):
            outcome = await self.hooks.answered(
                tool.spec, tool.ceiling, outcome, watch, ctx.request_id
            )
        return outcome.wire() if isinstance(outcome, Sealed) else outcome

    async def _call(
        self,
        tool: ServedTool,
        ctx: ServerRequestContext[Any, Any],
        params: types.CallToolRequestParams,
    ) -> Sealed | types.InputRequiredResult:
        spec = tool.spec
        if ctx.meta and bad_request_key(ctx.meta):
            return seal_error(spec, bad_key(spec.name))
        try:
            args = tool.parse(params.arguments or {})
        except ValidationError as exc:
            return seal_error(spec, invalid_arguments(spec.name, exc, tool.args_model))
        decision: Mapping[str, Any] | None = None
        validator = self.validators.get(spec.name)
        if validator is not None:
            checked = await self._pre_validate(tool, validator, args, ctx)
            if isinstance(checked, Sealed):
                return checked
            args, decision = checked
        handler_form = spec.resolved_model  # None: callers send what the handler takes
        if handler_form is not None and not isinstance(args, handler_form):
            try:  # nothing resolved: what was sent must already be the handler's form
                args = tool.resolve(_wire_args(args))
            except ValidationError as exc:
                return seal_error(spec, unresolved(spec.name, exc, tool.handler_model))
        confirmed = False
        if spec.require_confirmation:
            wire = _wire_args(args)
            asked = await confirm(
                spec, tool.labels, ctx, params, self.states, wire, decision
            )
            if asked is not None:
                return asked
            confirmed = mark_confirmed()
        resolved = _resolved_items(tool.items_arg, params.arguments, decision)
        context = self.context(
            tool, ctx, confirmed, decision, params.arguments, resolved
        )
        try:
            returned = await within(spec, tool.handler(args, context))
        except HandlerTimeout as late:
            return seal_error(spec, late.error)
        except ToolFailure as failure:  # its per-item data, if any, is kept
            return _keyed(seal_failure(spec, failure, tool.check), context, spec)
        except ClientRequestUnavailable as unasked:
            return seal_error(spec, cannot_ask(unasked))
        except BaseException as exc:  # SystemExit too: TOOL_ERROR
            if isinstance(exc, anyio.get_cancelled_exc_class()) and cancel_requested():
                raise  # the call itself was cancelled: there is nobody to answer
            return seal_error(spec, internal_error(spec, "Handler exception"))
        sealed = seal_return(
            spec, returned, tool.check, tool.content, tool.items_count(args)
        )
        return _keyed(sealed, context, spec)

    async def _pre_validate(
        self,
        tool: ServedTool,
        validator: ServedTool,
        args: BaseModel,
        ctx: ServerRequestContext[Any, Any],
    ) -> Sealed | tuple[BaseModel, Mapping[str, Any] | None]:
        spec = tool.spec
        policy = spec.pre_validation
        assert policy is not None
        try:
            returned = await validator.handler(
                validator.parse(_wire_args(args)), self.context(validator, ctx)
            )
            data = to_wire(returned.data if isinstance(returned, Reply) else returned)
            validator.check(data)
            target = (data.get("transaction_decision") or {}).get(
                "target_tool", spec.name
            )
            if target != spec.name:
                raise ValueError(f"decision for another tool: {target!r}")
        except BaseException as exc:  # handled by fail_open
            if isinstance(exc, anyio.get_cancelled_exc_class()) and cancel_requested():
                raise
            error = internal_error(spec, f"Pre-validator {policy.tool} failed")
            if policy.fail_open:
                logger.warning("%s: proceeding without pre-validation", spec.name)
                return args, None
            error.update(
                code="PRE_VALIDATION_FAILED",
                message=f"The pre-validation of {spec.name} failed; "
                f"report errorId {error['errorId']}.",
            )
            return seal_error(spec, error)
        if not data["eligible"]:
            reason = data.get("reason")
            text = reason if isinstance(reason, str) and reason else "Not eligible."
            details = {"reason": reason} if reason is not None else None
            return seal_error(
                spec, framework_error("PRE_VALIDATION_REJECTED", text, details)
            )
        decided = data.get("transaction_decision")
        if decided is None:
            return args, data
        # It replaces the arguments it names; the others stay as sent (the guide's
        # §2 resolves `items` alone, its tool also takes `customer_id`; decision 0136).
        named = decided["resolved_arguments"]
        strays = tool.strays(named)
        if strays:  # a misnamed key would leave the caller's value in place, unsaid
            return seal_error(spec, not_arguments(spec.name, strays))
        resolved = {**_wire_args(args), **named}
        try:
            return tool.resolve(resolved), data
        except ValidationError as exc:
            return seal_error(spec, unresolved(spec.name, exc, tool.handler_model))
