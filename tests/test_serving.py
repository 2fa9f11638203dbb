"""`toolc serve --mock` and `toolc scaffold`, driven as a user drives them: the commands run in
real processes and the SDK's real stdio client talks to what they serve. Every envelope goes
through `sealed` (it validates against the tool's published outputSchema)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters, types
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client
from toolc.serve.mock_values import example_value

sys.path.insert(0, str(Path(__file__).resolve().parent / "runtime_support"))
from harness import sealed

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
EXAMPLES = ROOT / "examples"
FIXTURES = Path(__file__).parent / "fixtures"


def _published(config: Path) -> dict[str, dict[str, Any]]:
    listing = json.loads((config / "generated" / "mcp_tools" / "tools.json").read_text())
    return {d["name"]: d for d in listing["tools"]}


def _answer(action: str) -> Callable[..., Awaitable[types.ElicitResult]]:
    async def callback(context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        if action == "accept":
            return types.ElicitResult(action="accept", content={"confirm": True})
        return types.ElicitResult(action=action)  # type: ignore[arg-type]

    return callback


def _session(
    command: list[str],
    script: Callable[[Client], Awaitable[Any]],
    *,
    mode: str = "auto",
    answer: str | None = "accept",
    cwd: Path | None = None,
) -> Any:
    async def main() -> Any:
        params = StdioServerParameters(command=command[0], args=command[1:], cwd=cwd)
        callback = _answer(answer) if answer is not None else None
        client = Client(params, mode=mode, elicitation_callback=callback)  # type: ignore[arg-type]
        async with client:
            return await script(client)

    return anyio.run(main)


def _calls(client: Client) -> Awaitable[tuple[list[dict[str, Any]], dict[str, Any]]]:
    async def run() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        listed = await client.list_tools()
        tools = [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools]
        results = {}
        for tool in listed.tools:
            args = example_value(tool.input_schema)
            results[tool.name] = await client.call_tool(tool.name, args)
        return tools, results

    return run()


@pytest.mark.parametrize("mode", ["auto", "legacy"])
@pytest.mark.parametrize("example", ["retail", "telecom"])
def test_mock_server_serves_every_tool_under_the_real_rules(example: str, mode: str) -> None:
    config = EXAMPLES / example
    published = _published(config)
    listed, results = _session(
        [str(BIN / "toolc"), "serve", str(config), "--mock"], _calls, mode=mode
    )
    assert {t["name"]: t for t in listed} == published  # exactly tools.json, _meta.version included
    assert all(t["_meta"]["version"] for t in listed)
    for name, result in results.items():
        envelope = sealed(published[name], result)
        assert envelope["ok"] is True, envelope
        if "multi_item" in json.dumps(published[name]["outputSchema"]):
            assert envelope["data"]["multi_item_status"] == "SUCCESS"


@pytest.mark.parametrize(
    ("answer", "code"), [("decline", "CONFIRMATION_DECLINED"), (None, "CONFIRMATION_UNAVAILABLE")]
)
def test_mock_server_asks_for_confirmation(answer: str | None, code: str) -> None:
    config = EXAMPLES / "retail"
    published = _published(config)

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("cancelar_pedidos", {"order_ids": ["P-1"]})

    result = _session([str(BIN / "toolc"), "serve", str(config), "--mock"], script, answer=answer)
    envelope = sealed(published["cancelar_pedidos"], result)
    assert envelope["ok"] is False and envelope["error"]["code"] == code


def test_mock_server_validates_arguments() -> None:
    config = EXAMPLES / "retail"
    published = _published(config)

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("consultar_pedidos", {"order_ids": ["not-an-id"]})

    result = _session([str(BIN / "toolc"), "serve", str(config), "--mock"], script)
    envelope = sealed(published["consultar_pedidos"], result)
    assert envelope["error"]["code"] == "VALIDATION_ERROR"


def test_mock_validator_resolves_into_the_handler_s_form() -> None:
    """examples/telecom's callers send names (`accepts`): the mock pre-validator resolves
    them into synthesized canonical products, one per name, which the handler echoes."""
    config = EXAMPLES / "telecom"
    published = _published(config)

    async def script(client: Client) -> types.CallToolResult:
        args = {"customer_id": "1", "items": ["TIM Fashion", "Neymar Jr"]}
        return await client.call_tool("cancelar_produtos", args)

    result = _session([str(BIN / "toolc"), "serve", str(config), "--mock"], script)
    envelope = sealed(published["cancelar_produtos"], result)
    assert envelope["ok"] is True, envelope
    assert len(envelope["data"]["results"]) == 2


def test_mock_validator_keeps_the_elements_that_already_fit() -> None:
    """One element of a list in the handler's form already: it is kept, and only the other
    is synthesized (the whole list was replaced)."""
    from toolc.serve.mock_server import _handler_form

    product = {
        "type": "object",
        "required": ["id"],
        "properties": {"id": {"pattern": "^P-[0-9]+$"}},
    }
    schema = {"type": "array", "items": {"$ref": "#/$defs/Product"}}
    root = {"$defs": {"Product": product}}
    made = _handler_form([{"id": "P-7"}, "Neymar Jr"], schema, root)
    assert made[0] == {"id": "P-7"} and len(made) == 2
    assert made[1] != "Neymar Jr" and is_valid_product(made[1])
    unique = {**schema, "uniqueItems": True, "minItems": 1}
    alone = _handler_form(["a", "b"], unique, root)  # two equal synthesized items would break it
    assert len(alone) == 1 and is_valid_product(alone[0])


def is_valid_product(value: Any) -> bool:
    return isinstance(value, dict) and str(value.get("id", "")).startswith("P-")


def test_serve_needs_mock_and_a_server_choice(tmp_path: Path) -> None:
    toolc = str(BIN / "toolc")
    plain = subprocess.run(
        [toolc, "serve", str(EXAMPLES / "retail")], capture_output=True, text=True
    )
    assert plain.returncode == 2 and "--mock" in plain.stderr
    lab = ROOT / "tests" / "runtime_support" / "lab"
    several = subprocess.run([toolc, "serve", str(lab), "--mock"], capture_output=True, text=True)
    assert several.returncode == 2 and "lab, outro" in several.stderr
    unknown = subprocess.run(
        [toolc, "serve", str(lab), "--mock", "--server", "nope"], capture_output=True, text=True
    )
    assert unknown.returncode == 2 and "'nope'" in unknown.stderr


def _assert_passes_the_gates(starter: Path, tmp_path: Path) -> None:
    """The scaffold's file passes black, ruff and mypy --strict."""
    for tool in (["black", "--check", "-q"], ["ruff", "check", "--isolated", "-q"]):
        gate = subprocess.run([str(BIN / tool[0]), *tool[1:], str(starter)], capture_output=True)
        assert gate.returncode == 0, gate.stdout + gate.stderr
    from mypy import api

    out, err, status = api.run(["--strict", str(starter), "--cache-dir", str(tmp_path / ".mypy")])
    assert status == 0, out + err


def test_scaffold_writes_a_typed_starting_server_once(tmp_path: Path) -> None:
    config = tmp_path / "retail"
    shutil.copytree(EXAMPLES / "retail", config)
    toolc = str(BIN / "toolc")
    done = subprocess.run([toolc, "scaffold", str(config)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    starter = config / "generated" / "retail_server.py"
    first = starter.read_bytes()

    starter.write_bytes(first + b"# my edits\n")
    again = subprocess.run([toolc, "scaffold", str(config)], capture_output=True, text=True)
    assert again.returncode == 1 and "never overwrites" in again.stderr
    assert starter.read_bytes() == first + b"# my edits\n"

    _assert_passes_the_gates(starter, tmp_path)

    # It serves: every tool answers TOOL_ERROR (not implemented yet), sealed, no internals.
    published = _published(config)

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("consultar_pedidos", {"order_ids": ["P-1"]})

    result = _session([sys.executable, str(starter)], script, cwd=starter.parent)
    envelope = sealed(published["consultar_pedidos"], result)
    assert envelope["error"]["code"] == "TOOL_ERROR" and "errorId" in envelope["error"]
    assert "not implemented" not in json.dumps(envelope)


def test_scaffold_of_a_server_of_proxied_tools_only_passes_the_gates(tmp_path: Path) -> None:
    """No handler to write: the file imported `ToolContext` for nothing (ruff F401) and
    asked to fill in handlers it has none of."""
    config = tmp_path / "gw"
    config.mkdir()
    (config / "tools.yaml").write_text(
        "tools:\n  t:\n    version: 1.0.0\n    description: Forwarded.\n    mcp_server: gw\n"
        "    tool_type: query\n    args_schema: {}\n    proxy: {tool: t, command: [origin]}\n"
    )
    for verb in ("build", "scaffold"):
        done = subprocess.run([str(BIN / "toolc"), verb, str(config)], capture_output=True)
        assert done.returncode == 0, done.stderr
    starter = config / "generated" / "gw_server.py"
    text = starter.read_text()
    assert "ToolContext" not in text and "fill in each handler" not in text
    assert "its tools are proxied" in text
    _assert_passes_the_gates(starter, tmp_path)


def test_handlers_protocol_refuses_a_wrong_implementation(tmp_path: Path) -> None:
    """The typing is real: a handler returning the wrong type does not type-check."""
    config = tmp_path / "retail"
    shutil.copytree(EXAMPLES / "retail", config)
    subprocess.run([str(BIN / "toolc"), "scaffold", str(config)], check=True, capture_output=True)
    starter = config / "generated" / "retail_server.py"
    wrong = starter.read_text().replace(
        '        raise NotImplementedError("consultar_pedidos: not implemented yet")',
        "        return 42",
    )
    starter.write_text(wrong)
    from mypy import api

    out, _, status = api.run(["--strict", str(starter), "--cache-dir", str(tmp_path / ".mypy")])
    assert status == 1 and "return value" in out.lower()


def test_mock_answers_one_item_per_item_asked_for() -> None:
    config = EXAMPLES / "retail"
    published = _published(config)
    asked = ["P-100", "P-7", "P-42"]

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("consultar_pedidos", {"order_ids": asked})

    result = _session([str(BIN / "toolc"), "serve", str(config), "--mock"], script)
    envelope = sealed(published["consultar_pedidos"], result)
    assert [r["order_id"] for r in envelope["data"]["results"]] == asked
    assert envelope["data"]["metadata"]["multi_item"]["items_count"] == 3


PAGED = """\
tools:
  list_repos:
    version: 1.0.0
    description: Lists repositories, one page at a time.
    mcp_server: code
    tool_type: query
    args_schema:
      cursor: {type: string, description: Where the page starts.}
    returns:
      type: object
      required: [repos, next_cursor]
      properties:
        repos: {type: array, items: {type: string}}
        next_cursor: {type: [string, "null"], description: Null on the last page.}
"""


def test_mock_paging_ends_with_a_null_cursor(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(PAGED, encoding="utf-8")

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("list_repos", {})

    result = _session([str(BIN / "toolc"), "serve", str(tmp_path), "--mock"], script)
    assert result.structured_content is not None
    assert result.structured_content["data"]["next_cursor"] is None


TWO_SERVERS = """\
tools:
  list_directory:
    version: 1.0.0
    description: Lists a directory.
    mcp_server: fs
    tool_type: query
    args_schema:
      path: {type: string}
  read_file:
    version: 1.0.0
    description: Reads a file.
    mcp_server: fs
    tool_type: query
  create_issue:
    version: 1.1.0
    description: Opens an issue.
    mcp_server: github
    tool_type: action
    confirmation_required: true
  search_issues:
    version: 1.0.0
    description: Searches issues.
    mcp_server: github
    tool_type: query
"""


def test_each_scaffold_of_a_multi_server_config_serves_its_own_server(tmp_path: Path) -> None:
    """`python <server>_server.py` with no flags serves that server (it once picked the
    alphabetically first server and died with "handlers lack ...")."""
    config = tmp_path / "two"
    config.mkdir()
    (config / "tools.yaml").write_text(TWO_SERVERS)
    toolc = str(BIN / "toolc")
    built = subprocess.run([toolc, "build", str(config)], capture_output=True, text=True)
    assert built.returncode == 0, built.stderr

    async def listing(client: Client) -> list[str]:
        return sorted(t.name for t in (await client.list_tools()).tools)

    expected = {"fs": ["list_directory", "read_file"], "github": ["create_issue", "search_issues"]}
    for server, tools in expected.items():
        done = subprocess.run(
            [toolc, "scaffold", str(config), "--server", server], capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        starter = config / "generated" / f"{server}_server.py"
        assert _session([sys.executable, str(starter)], listing, cwd=starter.parent) == tools
    from mypy import api

    starters = [str(config / "generated" / f"{s}_server.py") for s in expected]
    out, err, status = api.run(["--strict", *starters, "--cache-dir", str(tmp_path / ".mypy")])
    assert status == 0, out + err


def test_main_never_guesses_among_several_servers(tmp_path: Path) -> None:
    """`main(handlers)` without `server=` and without `--server` is a usage error naming the
    servers (argparse's form, exit 2), whatever the handlers."""
    config = tmp_path / "two"
    config.mkdir()
    (config / "tools.yaml").write_text(TWO_SERVERS)
    out = tmp_path / "pkg"
    built = subprocess.run(
        [str(BIN / "toolc"), "build", str(config), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    # `github` made the overload `def create_server(handlers: GithubHandlers, server:
    # Literal["github"]) -> Server[Any]: ...` 89 columns, which black splits
    black = subprocess.run([str(BIN / "black"), "--check", "-q", str(out)], capture_output=True)
    assert black.returncode == 0, black.stderr
    script = "from pkg.server import main\nmain(object())\n"
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2, run.stderr
    assert "usage:" in run.stderr
    assert "several MCP servers (fs, github)" in run.stderr and "--server NAME" in run.stderr
    assert "Traceback" not in run.stderr
    chosen = subprocess.run(
        [sys.executable, "-c", script.replace("main(object())", "main(object(), ['--server', 'x'])")],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert chosen.returncode == 2 and "invalid choice: 'x'" in chosen.stderr


MOCK_GATEWAY = """tools:
  weather:
    version: 1.0.0
    description: The weather, from an origin that does not exist on this machine.
    mcp_server: gateway
    tool_type: query
    requires: [location]
    args_schema:
      location: {type: string, enum: [New York, Chicago]}
    returns:
      type: object
      required: [temperature, conditions]
      additionalProperties: false
      properties:
        temperature: {type: number}
        conditions: {type: string, minLength: 3}
    proxy: {tool: get-weather, command: [toolc-test-no-such-origin, stdio]}
  echo:
    version: 1.0.0
    description: Echoes the message, from an origin that lists no outputSchema.
    mcp_server: gateway
    tool_type: query
    args_schema:
      message: {type: string}
    proxy: {tool: echo, url: "http://127.0.0.1:9/mcp"}
  impossible:
    version: 1.0.0
    description: A result no value satisfies.
    mcp_server: gateway
    tool_type: query
    returns:
      type: object
      required: [a]
      properties:
        a: {allOf: [{type: string}, {type: integer}]}
    proxy: {tool: impossible, command: [toolc-test-no-such-origin, stdio]}
  greet:
    version: 1.0.0
    description: Greets a person by name.
    mcp_server: gateway
    tool_type: query
    returns:
      type: object
      properties:
        greeting: {type: string}
"""


def test_mock_answers_proxied_tools_without_their_origin(tmp_path: Path) -> None:
    """A mock gateway never reaches a real origin (none of these exists): each proxied tool
    answers a value valid against its origin's outputSchema, not enveloped; one that no value
    satisfies is left out with a warning."""
    from jsonschema import Draft202012Validator

    (tmp_path / "tools.yaml").write_text(MOCK_GATEWAY)
    stderr = tmp_path / "stderr.txt"

    async def script(client: ClientSession) -> Any:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        weather = await client.call_tool("weather", {"location": "Chicago"})
        echo = await client.call_tool("echo", {"message": "hi"})
        refused = await client.call_tool("weather", {"location": "Paris"})
        greet = await client.call_tool("greet", {})
        return listed, weather, echo, refused, greet

    with stderr.open("w") as errors:
        command = [str(BIN / "toolc"), "serve", str(tmp_path), "--mock"]
        listed, weather, echo, refused, greet = _session_with_stderr(command, script, errors)
    assert sorted(listed) == ["echo", "greet", "weather"]
    assert "proxied tool 'impossible' is left out" in stderr.read_text()
    schema = listed["weather"].output_schema
    assert not weather.is_error and "ok" not in weather.structured_content  # not enveloped
    Draft202012Validator(schema).validate(weather.structured_content)
    assert json.loads(weather.content[0].text) == weather.structured_content
    assert not echo.is_error and echo.structured_content is None
    assert echo.content[0].text == "Mock answer of echo."
    assert refused.is_error and "Invalid arguments for weather" in refused.content[0].text
    assert greet.structured_content["ok"] is True  # an own tool keeps its envelope


def _session_with_stderr(command: list[str], script: Any, errors: Any) -> Any:
    async def main() -> Any:
        params = StdioServerParameters(command=command[0], args=command[1:])
        async with (
            stdio_client(params, errlog=errors) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await script(session)

    return anyio.run(main)


def test_a_portable_config_is_mocked_from_its_inlined_output_schema(tmp_path: Path) -> None:
    # decision 0106: the data of a portable outputSchema is inlined; the mock finds it there.
    from toolc import verbs

    for name in ("tools.yaml", "tool_policies.yaml"):
        shutil.copy(EXAMPLES / "retail" / name, tmp_path / name)
    text = (tmp_path / "tools.yaml").read_text(encoding="utf-8")
    (tmp_path / "tools.yaml").write_text("publish: portable\n" + text, encoding="utf-8")
    compiled = verbs.compile_config(tmp_path, cwd=tmp_path)
    listing = json.loads(compiled.files["tools.json"])["tools"]
    published = {d["name"]: d for d in listing}
    assert "$defs" not in published["consultar_pedidos"]["outputSchema"]
    asked = ["P-100", "P-7"]

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("consultar_pedidos", {"order_ids": asked})

    result = _session([str(BIN / "toolc"), "serve", str(tmp_path), "--mock"], script)
    envelope = sealed(published["consultar_pedidos"], result)
    assert [r["order_id"] for r in envelope["data"]["results"]] == asked


def test_scaffold_of_a_server_with_the_longest_name_passes_the_gates(tmp_path: Path) -> None:
    """Its protocol's name (about 140 columns) once sat in `handlers: <Protocol> =
    Handlers()`, a line black rewrites, differently at different widths. It is now
    `serve`'s parameter, which black leaves long."""
    config = tmp_path / "adversarial"
    shutil.copytree(FIXTURES / "good" / "adversarial", config)
    server = ("a" + "Long_server-name.0123456789" * 5)[:128]
    toolc = str(BIN / "toolc")
    for verb in (["build"], ["scaffold", "--server", server]):
        done = subprocess.run([toolc, *verb, str(config)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    (starter,) = (config / "generated").glob("*_server.py")
    assert "def serve(\n    handlers: " in starter.read_text()  # one parameter, left long
    _assert_passes_the_gates(starter, tmp_path)


INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "t", "version": "1"}},
}  # fmt: skip


def test_the_mock_server_leaves_no_package_behind(tmp_path: Path) -> None:
    """The package it imports is written to a temporary folder: gone when it stops (every
    run left half a megabyte in /tmp)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    done = subprocess.run(
        [str(BIN / "toolc"), "serve", "--mock", str(EXAMPLES / "retail")],
        input=json.dumps(INITIALIZE) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    assert done.returncode == 0 and '"id":1' in done.stdout.replace(" ", ""), done.stderr
    assert list(temporary.iterdir()) == []


SHARED_ITEMS = """\
tools:
  reservar:
    version: 1.0.0
    description: Reserva itens.
    mcp_server: loja
    tool_type: query
    requires: [itens]
    args_schema:
      itens: {$ref: '#/types/Skus'}
    multi_item:
      item:
        type: object
        required: [success]
        properties:
          success: {type: boolean}
types:
  Skus: {type: array, items: {type: string}}
"""


def test_mock_answers_one_item_per_item_of_a_shared_array_type(tmp_path: Path) -> None:
    """The items argument through a `$ref` to a shared type, as the runtime finds it: the
    mock answered one result whatever was asked."""
    (tmp_path / "tools.yaml").write_text(SHARED_ITEMS, encoding="utf-8")
    assert subprocess.run([str(BIN / "toolc"), "build", str(tmp_path)]).returncode == 0

    async def script(client: Client) -> types.CallToolResult:
        return await client.call_tool("reservar", {"itens": ["S1", "S2", "S3"]})

    result = _session([str(BIN / "toolc"), "serve", str(tmp_path), "--mock"], script)
    envelope = sealed(_published(tmp_path)["reservar"], result)
    assert envelope["data"]["metadata"]["multi_item"]["items_count"] == 3


def test_scaffold_refuses_a_file_named_as_the_package_beside_it(tmp_path: Path) -> None:
    """With `--out gen/retail_server` the default file `gen/retail_server.py` would be
    shadowed by the package: `toolc test`'s default import found the package."""
    config = tmp_path / "retail"
    config.mkdir()
    for name in ("tools.yaml", "tool_policies.yaml"):
        shutil.copy(EXAMPLES / "retail" / name, config / name)
    out = config / "gen" / "retail_server"
    done = subprocess.run(
        [str(BIN / "toolc"), "scaffold", str(config), "--out", str(out)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and "name the file with --file PATH" in done.stderr
    assert not (config / "gen" / "retail_server.py").exists()
    elsewhere = subprocess.run(
        [str(BIN / "toolc"), "scaffold", str(config), "--out", str(out),
         "--file", str(config / "gen" / "handlers_retail.py")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert elsewhere.returncode == 0, elsewhere.stderr


def test_the_mock_server_stopped_by_sigterm_leaves_no_package_behind(tmp_path: Path) -> None:
    """SIGTERM is how a client stops a stdio server: the folder went with Ctrl-C and a
    closed stdin only."""
    import signal

    served = subprocess.Popen(
        [str(BIN / "toolc"), "serve", "--mock", str(EXAMPLES / "retail")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )  # fmt: skip
    assert served.stdin is not None and served.stdout is not None
    served.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    served.stdin.flush()
    assert b'"id":1' in served.stdout.readline()
    assert len(list(tmp_path.iterdir())) == 1  # the package, while it serves
    served.send_signal(signal.SIGTERM)
    assert served.wait(30) == 0
    assert list(tmp_path.iterdir()) == []
