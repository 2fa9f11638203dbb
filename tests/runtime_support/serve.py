"""A test server process: `python serve.py PACKAGE HANDLERS_MODULE [MCP_SERVER]`.

Serves a generated package (with the server runtime copied in, as the build ships it)
over stdio (or Streamable HTTP on 127.0.0.1:RUNTIME_TEST_HTTP_PORT), with the handlers of
HANDLERS_MODULE. RUNTIME_TEST_LOG names the file the server logs to; RUNTIME_TEST_HOST,
RUNTIME_TEST_ALLOW_HOSTS (comma-separated) and RUNTIME_TEST_TOKEN_ENV (the variable holding
a bearer token) shape the HTTP server. RUNTIME_TEST_METRICS=1 turns metrics on;
RUNTIME_TEST_AUDIT names a file each audit record is appended to (one JSON line), and
RUNTIME_TEST_AUDIT_FAILS=1 makes the hook raise after writing it; RUNTIME_TEST_OBSERVE names
a file each metrics observation is appended to (the stdio servers' hook); RUNTIME_TEST_STATE_DB
names a shared request_state store (FileStore). A handlers module's `server_extras()`,
if any, gives build_server more keyword arguments (resources, prompts, ...)."""

from __future__ import annotations

import importlib
import json
import logging
import os
import sys
from importlib import resources
from typing import Any


def _audit(path: str, fails: bool) -> Any:
    def hook(record: Any) -> None:
        line = {
            "tool": record.tool,
            "version": record.version,
            "outcome": record.outcome,
            "error_id": record.error_id,
            "confirmed": record.confirmed,
            "data": record.data,
        }
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
        if fails:
            raise RuntimeError("the audit store is down")

    return hook


def _observer(path: str) -> Any:
    def observe(o: Any) -> None:
        line = [o.tool, o.version, o.error_type, o.seconds, o.confirmed]
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")

    return observe


def main() -> None:
    package, handlers_module = sys.argv[1], sys.argv[2]
    server = sys.argv[3] if len(sys.argv) > 3 else None
    log = os.environ.get("RUNTIME_TEST_LOG")
    if log:
        logging.basicConfig(filename=log, level=logging.INFO)
    tools = importlib.import_module(package).ALL_TOOLS
    runtime = importlib.import_module(f"{package}.server_runtime")
    listing = resources.files(package).joinpath("tools.json").read_text("utf-8")
    module = importlib.import_module(handlers_module)
    handlers = module.Handlers()
    # What the handlers' module serves beside its tools (resources, prompts, ...).
    extras = getattr(module, "server_extras", dict)()
    # A store several test processes share (the signing key: TOOLC_REQUEST_STATE_KEY).
    shared = os.environ.get("RUNTIME_TEST_STATE_DB")
    built = runtime.build_server(
        tools,
        json.loads(listing)["tools"],
        handlers,
        server=server,
        name=f"test-{package}",
        version="0.0.1",
        metrics=os.environ.get("RUNTIME_TEST_METRICS") == "1",
        observer=_observer(seen) if (seen := os.environ.get("RUNTIME_TEST_OBSERVE")) else None,
        audit=_audit(audit, os.environ.get("RUNTIME_TEST_AUDIT_FAILS") == "1")
        if (audit := os.environ.get("RUNTIME_TEST_AUDIT"))
        else None,
        request_state_store=runtime.FileStore(shared) if shared else None,
        **extras,
    )
    port = os.environ.get("RUNTIME_TEST_HTTP_PORT")
    if port:
        token_env = os.environ.get("RUNTIME_TEST_TOKEN_ENV")
        allowed = os.environ.get("RUNTIME_TEST_ALLOW_HOSTS", "")
        runtime.run_http(
            built,
            os.environ.get("RUNTIME_TEST_HOST", "127.0.0.1"),
            int(port),
            allowed_hosts=[h for h in allowed.split(",") if h],
            token=runtime.token_from_env(token_env) if token_env else None,
            grace_seconds=int(os.environ.get("RUNTIME_TEST_GRACE", "30")),
        )
    else:
        runtime.run_stdio(built)


if __name__ == "__main__":
    main()
