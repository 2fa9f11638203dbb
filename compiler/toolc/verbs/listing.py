"""What `tools/list` costs an agent: each served tool's descriptor in bytes as the server sends
it (compact UTF-8 JSON), and in tokens by a named estimate, per tool and per server (one server's
listing is what one agent pays for, in every conversation that connects to it).

Tokens are an estimate, `bytes/4`: the UTF-8 bytes divided by four, rounded up, the usual rule
of thumb for BPE tokenizers on English and JSON. No tokenizer is exact for every model anyway
(providers re-render tools into prompts of their own), and the ones that ship their encodings
weigh tens of megabytes. Measured against o200k_base (bench/listing_tokens.py) on the examples,
the test configs and multilingual descriptions: mean error 7 %, worst 17 % (CJK text, under)."""

from __future__ import annotations

import json
from collections.abc import Mapping

import msgspec

from toolc.diagnostics.codes import diag
from toolc.diagnostics.model import Diagnostic, Span

TOKEN_ESTIMATE = "bytes/4"


def estimate_tokens(size: int) -> int:
    """The `bytes/4` estimate of a text of `size` UTF-8 bytes."""
    return -(-size // 4)


class ToolCost(msgspec.Struct, frozen=True):
    tool: str
    server: str
    bytes: int

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.bytes)


class ServerCost(msgspec.Struct, frozen=True):
    server: str
    tools: tuple[ToolCost, ...]  # largest first

    @property
    def bytes(self) -> int:
        # A listing is `{"tools":[...]}`: the descriptors, their commas and the frame.
        return sum(t.bytes for t in self.tools) + max(len(self.tools) - 1, 0) + len('{"tools":[]}')

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.bytes)


def wire_size(descriptor: object) -> int:
    """The bytes of a descriptor as a JSON-RPC body carries it: compact, UTF-8, unescaped."""
    return len(json.dumps(descriptor, ensure_ascii=False, separators=(",", ":")).encode())


def listing_costs(tools_json: bytes, served: Mapping[str, str]) -> list[ServerCost]:
    """Each server's listing, from the package's tools.json and the tools each server serves
    (`served`: tool → server, enabled tools only), servers by name."""
    by_server: dict[str, list[ToolCost]] = {}
    for descriptor in json.loads(tools_json)["tools"]:
        server = served.get(descriptor["name"])
        if server is not None:
            cost = ToolCost(descriptor["name"], server, wire_size(descriptor))
            by_server.setdefault(server, []).append(cost)
    return [
        ServerCost(server, tuple(sorted(costs, key=lambda c: (-c.bytes, c.tool))))
        for server, costs in sorted(by_server.items())
    ]


def render_costs(costs: list[ServerCost]) -> str:
    """`toolc check --stats`: a table per server, largest tools first, then its total."""
    out = []
    for server in costs:
        width = max(len(t.tool) for t in server.tools)
        out.append(f"mcp_server {server.server}: tools/list of {len(server.tools)} tool(s)")
        out += [
            f"  {t.tool:<{width}}  {t.bytes:>9,} bytes  ~{t.tokens:>7,} tokens"
            for t in server.tools
        ]
        total = "total"
        out.append(f"  {total:<{width}}  {server.bytes:>9,} bytes  ~{server.tokens:>7,} tokens")
    out.append(f"tokens are an estimate ({TOKEN_ESTIMATE}: UTF-8 bytes / 4)")
    return "\n".join(out) + "\n"


def over_budget(
    costs: list[ServerCost], entries: Mapping[str, Span], budget: int, origin: str
) -> list[Diagnostic]:
    """A warning for each server whose listing is estimated over `budget` tokens, at its
    largest tool's entry (`entries`: tool → its key under `tools:`), the first place to cut."""
    found = []
    for server in costs:
        if server.tokens <= budget:
            continue
        largest = server.tools[:3]
        named = ", ".join(f"'{t.tool}' ~{t.tokens:,}" for t in largest)
        found.append(
            diag(
                "listing-over-budget",
                entries[largest[0].tool],
                f"mcp_server '{server.server}' lists ~{server.tokens:,} tokens of tools "
                f"({TOKEN_ESTIMATE}), over the budget of {budget:,} ({origin}); "
                f"the largest: {named}",
                "shorten descriptions, share repeated shapes as `types:`, move rarely used tools "
                "to another mcp_server, or raise `listing_budget`; `toolc check --stats` shows "
                "every tool's share",
            )
        )
    return found
