"""The confirmation question of a tool whose policy requires it: one question per call,
for the whole set of items, in both protocol eras.

- 2025-11-25 and earlier: the server asks during the call (`session.elicit_form`).
- 2026-07-28: the call answers `InputRequiredResult` and the client retries with
  `input_responses`. An answer counts only for a question this server asked in this
  call: the question carries a `request_state` signed with a key (per process, or
  shared by several: server_state_store) over the
  tool, the arguments the client sent, the arguments it confirms and a nonce, and each
  nonce is redeemed once. A state that fails that (tampered, replayed, expired, from
  another call) is refused with the JSON-RPC error the SDK's own servers give."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Mapping
from typing import Any, Literal

from mcp import types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types.version import MODERN_PROTOCOL_VERSIONS

from .server_state_store import MemoryStore, SingleUseStore

logger = logging.getLogger(__name__)

QUESTION = "confirm"

# Flat and non-empty: clients render empty or nested forms badly.
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        QUESTION: {
            "type": "boolean",
            "title": "Confirm",
            "description": "True to go ahead, false to cancel.",
        }
    },
    "required": [QUESTION],
}

Answer = Literal["confirmed", "declined", "unavailable"]

_NAME_KEYS = ("name", "subject", "title", "label", "id")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def binding(tool: str, arguments: Any) -> str:
    """What a confirmation is bound to: the tool and its canonical arguments."""
    canonical = json.dumps(
        [tool, arguments], sort_keys=True, separators=(",", ":"), ensure_ascii=True
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


class RequestStates:
    """Signs the `request_state` of each question and redeems it once."""

    def __init__(
        self,
        *,
        ttl: float = 600.0,
        max_pending: int = 10_000,
        key: bytes | None = None,
        store: SingleUseStore | None = None,
    ) -> None:
        # A shared key and store let several processes answer each other's questions.
        self._key = key if key is not None else secrets.token_bytes(32)
        self._ttl = ttl
        self._pending = store if store is not None else MemoryStore(max_pending)

    def _mac(self, payload: bytes) -> bytes:
        return hmac.new(self._key, payload, hashlib.sha256).digest()

    def issue(self, bound: str, decided: str | None = None) -> str:
        """A signed, single-use state for a question about the call `bound` (the tool
        and the arguments as sent) asking to confirm `decided` (the arguments after
        pre-validation; the same call when None)."""
        nonce = secrets.token_urlsafe(16)
        expires = time.time() + self._ttl
        self._pending.add(nonce, expires)
        claims = {"b": bound, "d": decided or bound, "n": nonce, "x": expires}
        payload = json.dumps(claims).encode()
        return f"{_b64(payload)}.{_b64(self._mac(payload))}"

    def redeem(self, state: str, bound: str) -> dict[str, Any] | None:
        """The claims of a state this object issued for `bound`, unexpired, once; None
        for any other state."""
        try:
            head, _, tag = state.partition(".")
            payload = _unb64(head)
            if not hmac.compare_digest(_unb64(tag), self._mac(payload)):
                return None
            claims = json.loads(payload)
            nonce, expires = claims["n"], claims["x"]
            if claims["b"] != bound or not time.time() < expires:
                return None
        except (ValueError, KeyError, TypeError):
            return None
        if not self._pending.redeem(nonce):
            return None
        return dict(claims)


def refuse_state() -> MCPError:
    """What the SDK's `RequestStateBoundary` answers for a state it cannot trust: the
    same frozen wire error (-32602; HTTP 400 on 2026-07-28), the reason only logged."""
    return MCPError(
        code=types.INVALID_PARAMS,
        message="Invalid or expired requestState",
        data={"reason": "invalid_request_state"},
    )


# How much of each value, and how many values per argument, the question shows.
_VALUE_CHARS = 80
_VALUES_SHOWN = 20
_QUESTION_CHARS = 2000


def visible(text: str, limit: int = _QUESTION_CHARS) -> str:
    """`text` with every control, format (bidi, zero-width), line and paragraph
    separator character written as an escape, so a value cannot start a new line or
    reorder the question around it, cut at `limit` characters."""
    out = []
    for ch in text:
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"):
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    shown = "".join(out)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + visible(escaped, _VALUE_CHARS) + '"'


def _item_text(value: Any) -> str:
    """One value as the question shows it: a string (or an item's name) quoted and
    escaped, a number as it is, anything else as compact JSON, each bounded."""
    if isinstance(value, Mapping):
        for key in _NAME_KEYS:
            if isinstance(value.get(key), str | int) and value[key] != "":
                return _item_text(value[key])
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return visible(text, _VALUE_CHARS)
    if isinstance(value, str):
        return _quoted(value)
    return visible(json.dumps(value, ensure_ascii=False), _VALUE_CHARS)


def labels(input_schema: Mapping[str, Any]) -> dict[str, str]:
    """The arguments that name the call's items: wire name → `x-toolc-label`."""
    properties = input_schema.get("properties", {})
    return {
        name: prop["x-toolc-label"]
        for name, prop in properties.items()
        if isinstance(prop, Mapping) and isinstance(prop.get("x-toolc-label"), str)
    }


def message(title: str, named: Mapping[str, str], arguments: Mapping[str, Any]) -> str:
    """The question, naming the items through each argument's label, each value
    quoted, e.g. `Cancelar pedidos — os pedidos: "P-100", "P-101". Confirm?` (values
    come from the caller: they must never word the question themselves)."""
    parts = []
    for name, label in named.items():
        if name in arguments:
            value = arguments[name]
            values = value if isinstance(value, list) else [value]
            shown = [_item_text(v) for v in values[:_VALUES_SHOWN]]
            if len(values) > _VALUES_SHOWN:
                shown.append(f"and {len(values) - _VALUES_SHOWN} more")
            parts.append(f"{label}: {', '.join(shown)}")
    question = f"{title} — {'; '.join(parts)}" if parts else title
    return visible(question) + ". Confirm?"


def _form_capable(ctx: ServerRequestContext[Any, Any]) -> bool:
    capabilities = ctx.session.client_capabilities
    elicitation = capabilities.elicitation if capabilities is not None else None
    if elicitation is None:
        return False
    # `elicitation: {}` (no mode named) means form mode.
    return elicitation.form is not None or elicitation.url is None


def _verdict(answer: object) -> Answer:
    if (
        isinstance(answer, types.ElicitResult)
        and answer.action == "accept"
        and (answer.content or {}).get(QUESTION) is True
    ):
        return "confirmed"
    return "declined"


async def ask(
    ctx: ServerRequestContext[Any, Any],
    params: types.CallToolRequestParams,
    states: RequestStates,
    bound: str,
    decided: str,
    text: str,
) -> Answer | types.InputRequiredResult:
    """The user's answer, or (2026-07-28) the question to return to the client.
    `bound`: the call as sent; `decided`: the arguments to confirm (see `issue`).
    Raises `MCPError` for a `request_state` this server cannot trust."""
    if not _form_capable(ctx):
        return "unavailable"
    if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
        state = params.request_state
        if state is not None:
            claims = states.redeem(state, bound)
            if claims is None:
                logger.warning(
                    "%s: refused a requestState it did not issue", params.name
                )
                raise refuse_state()
            answer = (params.input_responses or {}).get(QUESTION)
            # A validator that resolved the call differently this round: ask again.
            if answer is not None and claims.get("d") == decided:
                return _verdict(answer)
        # No answer to a question of ours: any input_responses sent are ignored.
        request = types.ElicitRequest(
            params=types.ElicitRequestFormParams(
                message=text, requested_schema=CONFIRM_SCHEMA
            )
        )
        return types.InputRequiredResult(
            input_requests={QUESTION: request},
            request_state=states.issue(bound, decided),
        )
    if not ctx.session.can_send_request:
        return "unavailable"
    result = await ctx.session.elicit_form(
        message=text, requested_schema=CONFIRM_SCHEMA, related_request_id=ctx.request_id
    )
    return _verdict(result)
