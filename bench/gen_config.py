#!/usr/bin/env python3
"""Deterministic generator of synthetic toolc config directories, for the `toolc check` benchmark.

    .venv/bin/python bench/gen_config.py            # 10, 236, 1000, 5000 → bench/.configs/<N>/
    .venv/bin/python bench/gen_config.py --sizes 236 --out /tmp/cfg --seed 3
    .venv/bin/python bench/gen_config.py --check    # and `toolc check` each: must be clean

Each <N>/ holds a tools.yaml and a tool_policies.yaml written in the config language of
schemas/tools.schema.json and schemas/tool_policies.schema.json, shaped like examples/retail and
examples/telecom but using every part of the language: all argument kinds (patterns, formats,
enums, inclusive and exclusive bounds, nullable types, `array` and `list`, nested objects with
`additionalProperties: false`, `const`, `default`, `$ref` to shared `types:`, annotations),
`returns`, `multi_item`, `errors`, `unknown_args: forbid`, and policies with `pre_validation`.

Properties the benchmark relies on:
  * the same seed gives byte-identical files (only `random.Random(seed)`, no set or hash order);
  * the tools of a smaller config are a prefix of a larger one (same seed), so the time per tool
    is compared on the same mix of tools;
  * the configs are clean: `toolc check` exits 0 with no diagnostics at all (``--check``);
  * patterns are portable (explicit classes only, no \\d \\w \\s \\b, no lookaround) and every
    shared type is referenced.

Stdlib only: importable by bench/run.py without touching toolc.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_OUT = BENCH_DIR / ".configs"
DEFAULT_SIZES = (10, 236, 1000, 5000)
DEFAULT_SEED = 20240501
STAMP_FILE = "GENERATED"  # seed + generator hash, so run.py can tell a stale config

SERVERS = ("orders", "billing", "catalog", "support", "logistics")
ENTITIES = {
    "orders": ("order", "cart", "return_request"),
    "billing": ("invoice", "payment", "refund", "subscription"),
    "catalog": ("product", "price_list", "bundle"),
    "support": ("ticket", "case_note", "contact"),
    "logistics": ("shipment", "pickup", "parcel"),
}
ID_PREFIX = {
    "order": "ORD",
    "cart": "CRT",
    "return_request": "RR",
    "invoice": "INV",
    "payment": "PAY",
    "refund": "RF",
    "subscription": "SUB",
    "product": "PRD",
    "price_list": "PL",
    "bundle": "BDL",
    "ticket": "TK",
    "case_note": "CN",
    "contact": "CTC",
    "shipment": "SHP",
    "pickup": "PU",
    "parcel": "PCL",
}
ACTION_VERBS = (
    "create",
    "update",
    "cancel",
    "approve",
    "assign",
    "close",
    "reopen",
    "suspend",
    "activate",
    "archive",
)
QUERY_VERBS = ("get", "list", "search", "lookup", "validate", "count")
THIRD_PERSON = {"search": "Searches", "lookup": "Looks up"}
ERROR_CODES = (
    ("NOT_FOUND", False, "Check the identifier and try again."),
    ("ALREADY_PROCESSED", False, "Nothing to do: the request was already handled."),
    ("CONFLICT", True, "Another change is in progress; retry in a few seconds."),
    ("RATE_LIMITED", True, "Wait a minute before calling again."),
    ("UPSTREAM_UNAVAILABLE", True, "The backing system did not answer; try again later."),
    ("PERMISSION_DENIED", False, "The customer has no access to this resource."),
)

# --------------------------------------------------------------------------------------------
# Shared types. Every one is referenced (from an argument kind, a return schema or another type).
# --------------------------------------------------------------------------------------------
TYPES: dict[str, Any] = {
    "Money": {
        "type": "object",
        "description": "An amount in a currency.",
        "required": ["amount", "currency"],
        "additionalProperties": False,
        "properties": {
            "amount": {"type": "number", "minimum": 0, "description": "The amount, in units."},
            "currency": {"type": "string", "pattern": "^[A-Z]{3}$", "examples": ["BRL"]},
        },
        "examples": [{"amount": 10.5, "currency": "BRL"}],
    },
    "Sku": {
        "type": "string",
        "pattern": "^[A-Z0-9]{4,12}$",
        "minLength": 4,
        "maxLength": 12,
        "description": "Stock keeping unit, as printed on the label.",
        "examples": ["AB12CD34"],
    },
    "OrderLine": {
        "type": "object",
        "required": ["sku", "quantity"],
        "additionalProperties": False,
        "properties": {
            "sku": {"$ref": "#/types/Sku"},
            "quantity": {"type": "integer", "minimum": 1, "maximum": 999},
            "unit_price": {"$ref": "#/types/Money"},
            "gift": {"type": "boolean", "default": False},
        },
    },
    "CustomerRef": {
        "type": "object",
        "description": "Who the request is about: an account id, or a document number.",
        "required": ["account_id"],
        "additionalProperties": False,
        "properties": {
            "account_id": {"type": "string", "pattern": "^C[0-9]{6,10}$", "examples": ["C0012345"]},
            "document": {
                "type": ["string", "null"],
                "pattern": "^[0-9]{11}$",
                "description": "Tax document number, digits only.",
            },
        },
    },
    "DateRange": {
        "type": "object",
        "required": ["from"],
        "additionalProperties": False,
        "properties": {
            "from": {"type": "string", "format": "date", "examples": ["2024-01-01"]},
            "to": {"type": ["string", "null"], "format": "date", "default": None},
        },
    },
    "Status": {
        "type": "string",
        "enum": ["pending", "active", "completed", "cancelled", "failed"],
        "description": "Lifecycle state.",
    },
}


# --------------------------------------------------------------------------------------------
# Argument kinds. Each returns (name, schema); the names of different kinds are disjoint, so
# a tool never declares two arguments that become the same Python identifier.
# --------------------------------------------------------------------------------------------
ArgKind = Callable[[random.Random, str], tuple[str, dict[str, Any]]]


def _k_email(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "contact_email", {
        "type": "string",
        "format": "email",
        "maxLength": 254,
        "description": "Where the confirmation is sent.",
        "examples": [rng.choice(["ana@example.com", "joao.silva@example.org"])],
    }


def _k_reason(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    options = rng.sample(
        [
            "customer_request",
            "duplicate",
            "fraud_suspected",
            "price_change",
            "out_of_stock",
            "other",
        ],
        k=rng.randint(3, 6),
    )
    return "reason", {
        "type": "string",
        "enum": options,
        "default": options[0],
        "label": "the reason",
        "description": f"Why the {entity.replace('_', ' ')} changes.",
    }


def _k_limit(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    top = rng.choice([50, 100, 500])
    return "limit", {
        "type": "integer",
        "minimum": 1,
        "maximum": top,
        "default": min(20, top),
        "description": "Page size: at most this many results.",
    }


def _k_quantity(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "quantity", {
        "type": "integer",
        "exclusiveMinimum": 0,
        "exclusiveMaximum": rng.choice([100, 10000]),
        "description": "How many units.",
        "examples": [rng.randint(1, 9)],
    }


def _k_discount(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "discount_percent", {
        "type": "number",
        "minimum": 0,
        "maximum": 100,
        "default": 0,
        "title": "Discount",
        "description": "Percentage off the list price, 0 to 100.",
    }


def _k_amount(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "amount", {
        "type": "number",
        "exclusiveMinimum": 0,
        "exclusiveMaximum": 1000000,
        "description": "Amount in the account's currency.",
        "examples": [round(rng.uniform(1, 999), 2)],
        "label": "the amount",
        "user_prompt": "What amount should be used?",
    }


def _k_flag(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "notify_customer", {
        "type": "boolean",
        "default": rng.choice([True, False]),
        "description": "Whether the customer gets an e-mail about it.",
    }


def _k_note(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "note", {
        "type": ["string", "null"],
        "maxLength": rng.choice([200, 500, 2000]),
        "default": None,
        "title": "Note",
        "description": "Free text kept with the record. Optional: may be null.",
    }


def _k_priority(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "priority", {
        "type": ["integer", "null"],
        "minimum": 0,
        "maximum": 9,
        "description": "0 is the most urgent; null keeps the current priority.",
    }


def _k_tags(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "tags", {
        "type": "array",
        "items": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,31}$"},
        "minItems": 1,
        "maxItems": rng.choice([5, 10, 20]),
        "uniqueItems": True,
        "label": "the tags",
        "user_prompt": "Which tags should be applied?",
        "description": "Lower-case labels, e.g. vip or b2b.",
        "examples": [["vip", "b2b"]],
    }


def _k_line_numbers(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "line_numbers", {
        "type": "list",
        "items": {"type": "integer", "minimum": 1},
        "minItems": 1,
        "maxItems": 100,
        "uniqueItems": True,
        "description": "Which lines of the document, counting from 1.",
        "examples": [[1, 2, 3]],
    }


def _k_shipping_address(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "shipping_address", {
        "type": "object",
        "title": "Shipping address",
        "description": "Where to deliver.",
        "required": ["street", "city", "country"],
        "additionalProperties": False,
        "properties": {
            "street": {"type": "string", "minLength": 1, "maxLength": 120},
            "number": {"type": ["string", "null"], "maxLength": 10},
            "city": {"type": "string", "minLength": 1, "maxLength": 80},
            "postal_code": {
                "type": "string",
                "pattern": "^[0-9]{5}(-[0-9]{3})?$",
                "examples": ["01310-100"],
            },
            "country": {
                "type": "string",
                "enum": ["BR", "PT", "US"],
                "default": "BR",
                "description": "ISO country code: BR Brazil, PT Portugal, US United States.",
            },
            "geo": {
                "type": "object",
                "additionalProperties": False,
                "required": ["lat", "lon"],
                "properties": {
                    "lat": {"type": "number", "minimum": -90, "maximum": 90},
                    "lon": {"type": "number", "minimum": -180, "maximum": 180},
                },
            },
        },
        "label": "the address",
        "user_prompt": "What is the delivery address?",
    }


def _k_api_version(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "api_version", {
        "const": "v2",
        "default": "v2",
        "description": "Protocol version of the backing API; only v2 is served.",
    }


def _k_total(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "total", {"$ref": "#/types/Money", "description": "Expected total, checked upstream."}


def _k_customer(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "customer", {
        "$ref": "#/types/CustomerRef",
        "label": "the customer",
        "user_prompt": "Which customer is this about?",
    }


def _k_lines(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "lines", {
        "type": "array",
        "items": {"$ref": "#/types/OrderLine"},
        "minItems": 1,
        "maxItems": rng.choice([20, 50]),
        "label": "the items",
        "user_prompt": "Which items, and how many of each?",
        "description": "The order lines: a product and a quantity each.",
    }


def _k_period(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "period", {"$ref": "#/types/DateRange", "description": "Only records in this period."}


def _k_effective_date(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "effective_date", {
        "type": "string",
        "format": "date",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        "description": "When the change takes effect (YYYY-MM-DD).",
        "examples": ["2024-05-01"],
    }


def _k_idempotency_key(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "idempotency_key", {
        "type": "string",
        "format": "uuid",
        "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
        "description": "Repeating a call with the same key does nothing twice.",
    }


def _k_attributes(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "attributes", {
        "type": "object",
        "additionalProperties": {"type": "string", "maxLength": 200},
        "description": "Free-form key/value attributes.",
        "default": {},
    }


def _k_legacy_code(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "legacy_code", {
        "type": "string",
        "deprecated": True,
        "pattern": "^[A-Z]{3}[0-9]{3}$",
        "description": "Code of the old system; use the id instead.",
    }


def _k_skus(rng: random.Random, entity: str) -> tuple[str, dict[str, Any]]:
    return "skus", {
        "type": "list",
        "items": {"$ref": "#/types/Sku"},
        "minItems": 1,
        "maxItems": 30,
        "uniqueItems": True,
        "description": "Products to act on.",
    }


ARG_KINDS: tuple[ArgKind, ...] = (
    _k_email,
    _k_reason,
    _k_limit,
    _k_quantity,
    _k_discount,
    _k_amount,
    _k_flag,
    _k_note,
    _k_priority,
    _k_tags,
    _k_line_numbers,
    _k_shipping_address,
    _k_api_version,
    _k_total,
    _k_customer,
    _k_lines,
    _k_period,
    _k_effective_date,
    _k_idempotency_key,
    _k_attributes,
    _k_legacy_code,
    _k_skus,
)


def _id_arg(entity: str) -> tuple[str, dict[str, Any]]:
    prefix = ID_PREFIX[entity]
    words = entity.replace("_", " ")
    return f"{entity}_id", {
        "type": "string",
        "pattern": f"^{prefix}-[0-9]{{4,10}}$",
        "minLength": len(prefix) + 5,
        "maxLength": len(prefix) + 11,
        "label": f"the {words}",
        "description": f"Identifier of the {words}, like {prefix}-000123.",
        "user_prompt": f"Which {words} is it?",
        "examples": [f"{prefix}-000123"],
    }


def _returns(rng: random.Random, entity: str) -> dict[str, Any]:
    props: dict[str, Any] = {
        f"{entity}_id": {"type": "string"},
        "status": {"$ref": "#/types/Status"},
        "updated_at": {"type": "string", "format": "date-time"},
    }
    if rng.random() < 0.5:
        props["total"] = {"$ref": "#/types/Money"}
    if rng.random() < 0.4:
        props["lines"] = {"type": "array", "items": {"$ref": "#/types/OrderLine"}}
    if rng.random() < 0.3:
        props["history"] = {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["at", "status"],
                "properties": {
                    "at": {"type": "string", "format": "date-time"},
                    "status": {"$ref": "#/types/Status"},
                    "by": {"type": ["string", "null"]},
                },
            },
        }
    out: dict[str, Any] = {
        "type": "object",
        "required": [f"{entity}_id", "status"],
        "properties": props,
    }
    if rng.random() < 0.5:
        out["additionalProperties"] = False
    return out


def _multi_item(rng: random.Random) -> dict[str, Any]:
    item: dict[str, Any] = {
        "type": "object",
        "required": ["id", "success"],
        "properties": {"id": {"type": "string"}, "success": {"type": "boolean"}},
    }
    if rng.random() < 0.5:
        item["properties"]["reason"] = {
            "type": "string",
            "enum": ["not_found", "already_done", "rejected"],
            "description": "Why it failed: not_found, already_done (nothing to do) or rejected.",
        }
    if rng.random() < 0.3:
        item["properties"]["protocol"] = {"type": "string", "description": "Protocol number."}
    spec: dict[str, Any] = {"item": item}
    if rng.random() < 0.2:
        spec["workflow"] = True
    return spec


def _items_argument_made(
    args: dict[str, Any], id_name: str, id_schema: dict[str, Any], words: str, free: bool
) -> bool:
    """Whether a multi-item tool's arguments hold its items in one argument typed `array` (as
    the runtime finds them, decision 0140), made so when `free` (no pre-validator whose
    arguments it must keep): a list of ids where it has no array, the other arrays nullable
    where it has several. No draw: the configs after it stay the same."""
    arrays = [a for a, schema in args.items() if schema.get("type") in ("array", "list")]
    if len(arrays) == 1:
        return True
    if not free:
        return False
    if not arrays:
        args[f"{id_name}s"] = {
            "type": "array",
            "items": {k: id_schema[k] for k in ("type", "pattern", "minLength", "maxLength")},
            "minItems": 1,
            "description": f"The {words}s to act on, one result each.",
        }
    for name in arrays[1:]:
        args[name] = {**args[name], "type": ["array", "null"]}
    return True


def generate(n: int, seed: int = DEFAULT_SEED) -> tuple[dict[str, Any], dict[str, Any]]:
    """The (tools.yaml, tool_policies.yaml) documents of a config with ``n`` tools."""
    if n < 1:
        raise ValueError("n must be at least 1")
    rng = random.Random(seed)
    width = max(4, len(str(n - 1)))
    tools: dict[str, Any] = {}
    policies: dict[str, Any] = {}
    queries_by_server: dict[str, list[str]] = {}  # candidate pre-validators
    entity_of: dict[str, str] = {}
    kind_cursor = 0  # argument kinds rotate, so a few consecutive tools use every kind
    pre_validations = 0
    for i in range(n):
        # Index-driven choices make sure even the 10-tool config uses every feature.
        is_action = i % 2 == 1 if i < 8 else rng.random() < 0.45
        server = SERVERS[0] if i < 2 else rng.choice(SERVERS)
        candidates = queries_by_server.get(server, []) if is_action else []
        validator = None
        if candidates and (pre_validations == 0 or rng.random() < 0.08):
            validator = rng.choice(candidates)
        entity = entity_of[validator] if validator else rng.choice(ENTITIES[server])
        verb = rng.choice(ACTION_VERBS if is_action else QUERY_VERBS)
        name = f"{verb}_{entity}_{i:0{width}d}"
        entity_of[name] = entity
        words = entity.replace("_", " ")

        id_name, id_schema = _id_arg(entity)
        if validator is not None:
            # The validator receives these arguments unchanged (like the telecom example): the
            # same declarations, and more only when the validator ignores unknown arguments.
            args: dict[str, Any] = json.loads(json.dumps(tools[validator]["args_schema"]))
            forbids = tools[validator].get("unknown_args") == "forbid"
            count = 0 if forbids else rng.randint(0, 3)
        else:
            args = {id_name: id_schema}
            count = rng.randint(3, 7)
        for j in range(count):
            arg_name, schema = ARG_KINDS[(kind_cursor + j) % len(ARG_KINDS)](rng, entity)
            args.setdefault(arg_name, schema)
        kind_cursor += count
        requires = [id_name] + [
            a for a in list(args)[1:] if "default" not in args[a] and rng.random() < 0.25
        ]
        if validator is not None:  # every call reaches the validator: it requires no more
            known = tools[validator]
            needed = known.get("requires", policies.get(validator, {}).get("requires", []))
            requires += [a for a in needed if a not in requires]

        tool: dict[str, Any] = {
            "version": f"{rng.randint(1, 3)}.{rng.randint(0, 12)}.{rng.randint(0, 9)}"
        }
        # Every tool has a title (the metadata lint asks for one); the draw picks its form.
        plural = "s" if rng.random() < 0.5 else ""
        tool["title"] = f"{verb.capitalize()} {words}{plural}"
        does = THIRD_PERSON.get(verb, verb.capitalize() + "s")
        if is_action:
            tool["description"] = (
                f"{does} one or more {words}s of the customer. "
                "Changes state: confirm with the user first."
            )
        else:
            tool["description"] = f"{does} {words}s of the customer. Read-only."
        tool["mcp_server"] = server
        if rng.random() < 0.2:
            tool["enabled"] = True
        elif is_action and rng.random() < 0.03:
            tool["enabled"] = False
        tool["tool_type"] = "action" if is_action else "query"
        if is_action:
            tool["confirmation_required"] = True
        elif rng.random() < 0.4:
            tool["confirmation_required"] = False
        if i < 8 or rng.random() < 0.9 or validator is not None:
            tool["requires"] = requires
        tool["args_schema"] = args
        if i % 7 == 3 or rng.random() < 0.25:
            tool["unknown_args"] = "forbid"
        multi = (is_action and (i % 4 == 1 or rng.random() < 0.2)) or (
            not is_action and rng.random() < 0.08
        )
        if multi:
            spec = _multi_item(rng)  # drawn either way: the configs after it stay the same
            if _items_argument_made(args, id_name, id_schema, words, validator is None):
                tool["multi_item"] = spec
        elif i % 4 == 0 or rng.random() < (0.3 if is_action else 0.7):
            tool["returns"] = _returns(rng, entity)
        if i % 5 == 2 or rng.random() < 0.4:
            errors: dict[str, Any] = {}
            for code, retryable, hint in rng.sample(ERROR_CODES, k=rng.randint(1, 3)):
                spec: dict[str, Any] = {}
                if rng.random() < 0.5:
                    spec["description"] = f"The {words} could not be processed ({code.lower()})."
                spec["retryable"] = retryable
                spec["hint"] = hint
                errors[code] = spec
            tool["errors"] = errors
        tools[name] = tool

        # The policy, if any: agrees with the tool on every fact both declare.
        if validator is not None or rng.random() < 0.85:
            policy: dict[str, Any] = {
                "operation_type": "transactional" if is_action else "read_only",
                "require_confirmation": is_action,
            }
            if rng.random() < 0.5:
                policy["requires"] = list(requires)
                if "requires" in tool and rng.random() < 0.5:
                    policy["requires"] = list(reversed(requires))  # a set: order is free
            if validator is not None:
                pre: dict[str, Any] = {}
                if rng.random() < 0.5:
                    pre["enabled"] = True
                pre["tool"] = validator
                if rng.random() < 0.5:
                    pre["fail_open"] = rng.random() < 0.3
                policy["pre_validation"] = pre
                pre_validations += 1
            policies[name] = policy
        if not is_action and tool.get("enabled", True):
            queries_by_server.setdefault(server, []).append(name)

    # A pre-validator's data is the guide's decision, published by toolc: no `returns` of its own.
    for policy in policies.values():
        if "pre_validation" in policy:
            tools[policy["pre_validation"]["tool"]].pop("returns", None)
    types = {name: json.loads(json.dumps(schema)) for name, schema in TYPES.items()}
    tools_doc = {"tools": tools, "types": types}
    policies_doc = {"tool_policies": policies}
    _self_check(tools_doc, policies_doc)
    return tools_doc, policies_doc


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


_PORTABLE_BAD = re.compile(r"\\[dDwWsSbB]|\(\?[=!<]")


def _self_check(tools_doc: dict[str, Any], policies_doc: dict[str, Any]) -> None:
    """What the brief promises, checked on every generated config (cheap; runs in generate())."""
    tools, types = tools_doc["tools"], tools_doc["types"]
    used = {r.removeprefix("#/types/") for r in _refs(tools_doc)}
    unused = sorted(set(types) - used)
    assert not unused, f"shared types never referenced: {unused}"
    assert used <= set(types), f"refs to undeclared types: {sorted(used - set(types))}"
    text = json.dumps(tools_doc)
    assert not _PORTABLE_BAD.search(text.replace("\\\\", "\\")), "non-portable pattern"
    pols = policies_doc["tool_policies"]
    assert any("pre_validation" in p for p in pols.values()), "no pre_validation"
    for feature in ("returns", "multi_item", "errors", "unknown_args", "title"):
        assert any(feature in t for t in tools.values()), f"no tool has {feature}"
    for name, p in pols.items():
        pre = p.get("pre_validation")
        if pre:  # on the same server, read-only, and able to take the target's arguments
            v, target = tools[pre["tool"]], tools[name]
            assert v["tool_type"] == "query" and v["mcp_server"] == target["mcp_server"]
            v_requires = v.get("requires") or pols.get(pre["tool"], {}).get("requires") or []
            t_requires = target.get("requires") or p.get("requires") or []
            assert set(v_requires) <= set(t_requires) <= set(target["args_schema"])
            if v.get("unknown_args") == "forbid":
                assert set(target["args_schema"]) <= set(v["args_schema"])
    if len(tools) >= 10:  # from 10 tools on, every argument kind is used
        declared = {arg for t in tools.values() for arg in t["args_schema"]}
        kinds = {kind(random.Random(0), "order")[0] for kind in ARG_KINDS}
        assert kinds <= declared, f"argument kinds never used: {sorted(kinds - declared)}"


# --------------------------------------------------------------------------------------------
# A small YAML emitter: block style for structure, flow style for short leaf schemas, plain
# scalars where YAML 1.2 reads them back as the same string, JSON-quoted strings otherwise.
# --------------------------------------------------------------------------------------------
_BLOCK_KEYS = frozenset(
    {"tools", "types", "tool_policies", "args_schema", "properties", "errors", "multi_item"}
)
_PLAIN_BLOCK = re.compile(r"[A-Za-z][A-Za-z0-9 ,.()/_'?-]*[A-Za-z0-9.)_?]\Z|[A-Za-z]\Z")
_SEMVER = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+\Z")  # YAML 1.2 reads 1.2.3 as a string
_PLAIN_FLOW = re.compile(r"[A-Za-z][A-Za-z0-9 ._@/-]*[A-Za-z0-9._]\Z|[A-Za-z]\Z")
_PLAIN_KEY = re.compile(r"[A-Za-z_$][A-Za-z0-9_$.-]*\Z")
_RESERVED_WORDS = frozenset({"true", "false", "null", "yes", "no", "on", "off", "y", "n"})
FLOW_WIDTH = 96


def _plain_ok(s: str, pattern: re.Pattern[str]) -> bool:
    return bool(pattern.match(s)) and s.lower() not in _RESERVED_WORDS and "  " not in s


def _scalar(value: Any, flow: bool) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        assert text not in ("inf", "-inf", "nan")
        return text
    assert isinstance(value, str)
    if _plain_ok(value, _PLAIN_FLOW if flow else _PLAIN_BLOCK) or _SEMVER.match(value):
        return value
    return json.dumps(value, ensure_ascii=False)


def _key(key: str) -> str:
    return (
        key
        if _PLAIN_KEY.match(key) and key.lower() not in _RESERVED_WORDS
        else json.dumps(key, ensure_ascii=False)
    )


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value, flow=True)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _emit(value: Any, indent: int, out: list[str]) -> None:
    """Emit the entries of a block mapping or sequence ``value`` at ``indent`` spaces."""
    pad = " " * indent
    items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
    for key, item in items:
        head = f"{pad}{_key(key)}:" if key is not None else f"{pad}-"
        if isinstance(item, dict | list) and item:
            flow = _flow(item)
            small = (isinstance(item, list) and _depth(item) <= 2) or (
                key not in _BLOCK_KEYS
                and _depth(item) <= 2
                and len(head) + 1 + len(flow) <= FLOW_WIDTH
            )
            if small:
                out.append(f"{head} {flow}")
            else:
                out.append(head)
                _emit(item, indent + 2, out)
        elif isinstance(item, dict | list):
            out.append(f"{head} {'{}' if isinstance(item, dict) else '[]'}")
        else:
            out.append(f"{head} {_scalar(item, flow=False)}")


def to_yaml(doc: dict[str, Any], header: str) -> str:
    out = [f"# {line}".rstrip() for line in header.splitlines()]
    top = list(doc.items())
    for index, (key, value) in enumerate(top):
        if index:
            out.append("")
        out.append(f"{_key(key)}:")
        if key in ("tools", "tool_policies"):  # a blank line between tools, as people write them
            for n, (name, body) in enumerate(value.items()):
                if n and key == "tools":
                    out.append("")
                out.append(f"  {_key(name)}:")
                _emit(body, 4, out)
        else:
            _emit(value, 2, out)
    return "\n".join(out) + "\n"


def generator_hash() -> str:
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]


def stamp(n: int, seed: int) -> str:
    return f"tools={n} seed={seed} generator={generator_hash()}\n"


def render(n: int, seed: int = DEFAULT_SEED) -> tuple[str, str]:
    tools_doc, policies_doc = generate(n, seed)
    header = (
        f"Generated by bench/gen_config.py (tools={n}, seed={seed}). Do not edit.\n"
        "A synthetic config for benchmarking `toolc check`."
    )
    return to_yaml(tools_doc, header), to_yaml(policies_doc, header)


def write_config(directory: Path, n: int, seed: int = DEFAULT_SEED) -> Path:
    """Write <directory>/tools.yaml and tool_policies.yaml (only if their content changed)."""
    directory.mkdir(parents=True, exist_ok=True)
    tools_text, policies_text = render(n, seed)
    for fname, text in (
        ("tools.yaml", tools_text),
        ("tool_policies.yaml", policies_text),
        (STAMP_FILE, stamp(n, seed)),
    ):
        path = directory / fname
        data = text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
    return directory


def is_current(directory: Path, n: int, seed: int = DEFAULT_SEED) -> bool:
    """Whether ``directory`` holds the config this generator makes for (n, seed)."""
    try:
        return (directory / "tools.yaml").is_file() and (directory / STAMP_FILE).read_text(
            encoding="utf-8"
        ) == stamp(n, seed)
    except OSError:
        return False


def toolc_command() -> list[str]:
    script = Path(sys.executable).with_name("toolc")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "toolc"]


def check_clean(directory: Path) -> tuple[bool, str]:
    """Run `toolc check` (text and JSON formats): clean means exit 0 and no diagnostic at all."""
    text = subprocess.run(
        [*toolc_command(), "check", str(directory)], capture_output=True, text=True
    )
    js = subprocess.run(
        [*toolc_command(), "check", "--format", "json", str(directory)],
        capture_output=True,
        text=True,
    )
    clean = (
        text.returncode == 0
        and "no problems" in text.stderr
        and js.returncode == 0
        and not js.stdout.strip()
    )
    return clean, (text.stderr + js.stdout).strip()


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a comma-separated list of integers: {text!r}"
        ) from None
    if not sizes or any(s < 1 for s in sizes):
        raise argparse.ArgumentTypeError("sizes must be positive integers")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes",
        type=parse_sizes,
        default=list(DEFAULT_SIZES),
        help="comma-separated tool counts (default: 10,236,1000,5000)",
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="write <OUT>/<N>/ (default: bench/.configs)"
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="run `toolc check` on each config and fail unless it is clean",
    )
    args = parser.parse_args(argv)
    status = 0
    for n in args.sizes:
        directory = write_config(args.out / str(n), n, args.seed)
        size = (directory / "tools.yaml").stat().st_size
        lines = (directory / "tools.yaml").read_text(encoding="utf-8").count("\n")
        line = f"{directory}: {n} tools, tools.yaml {size / 1024:,.0f} KiB, {lines:,} lines"
        if args.check:
            clean, output = check_clean(directory)
            line += ", toolc check: " + ("clean" if clean else "NOT CLEAN")
            if not clean:
                status = 1
                line += "\n" + "\n".join(output.splitlines()[:40])
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main())
