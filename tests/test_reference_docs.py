"""The generated reference docs (`toolc docs`, `docs_out`): the examples' golden docs are fresh,
the files follow the llms.txt convention and are byte-identical run after run, and `build`
writes them with the package as one (all or nothing) while `check` reports stale ones with the
output-* codes."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import EXAMPLES, run_toolc
from toolc import verbs, workspace
from toolc.verbs.docs import reference

RETAIL = next(e for e in EXAMPLES if e.name == "retail")


def _reference(config: Path) -> dict[str, bytes]:
    compiled = verbs.compile_config(config, cwd=config)
    assert compiled.package is not None
    return reference(compiled)


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_the_examples_golden_docs_are_fresh(example: Path) -> None:
    files = _reference(example)
    docs = example / "docs"
    on_disk = {p.name: p.read_bytes() for p in docs.iterdir() if p.name != workspace.MANIFEST}
    assert on_disk == files, f"{docs} is stale: run `make golden`"
    assert _reference(example) == files  # deterministic


def test_llms_txt_follows_the_convention() -> None:
    text = _reference(RETAIL)["llms.txt"].decode()
    lines = text.splitlines()
    assert lines[0] == "# retail: MCP tool reference"
    assert lines[2].startswith("> ") and "`data`" in lines[2]
    assert "## MCP server `retail`" in lines
    links = [line for line in lines if line.startswith("- [")]
    assert links == [
        "- [Cancelar pedidos](retail.md#tool.cancelar_pedidos): `cancelar_pedidos` 2.0.0. "
        "Cancela um ou mais pedidos.",
        "- [Consultar pedidos](retail.md#tool.consultar_pedidos): `consultar_pedidos` 3.0.0. "
        "Consulta o estado de um ou mais pedidos.",
    ]
    full = _reference(RETAIL)["llms-full.txt"].decode()
    assert full.startswith("# retail: MCP tool reference\n\n> ")
    assert "## MCP server `retail`" in full and "### `cancelar_pedidos`: Cancelar pedidos" in full


def test_a_page_says_what_the_tool_publishes() -> None:
    page = _reference(RETAIL)["retail.md"].decode()
    assert '<a id="tool.cancelar_pedidos"></a>' in page
    assert "Version 2.0.0 · transactional · confirmation required · multi-item" in page
    assert (
        "| `order_ids` | array of OrderId | yes | — | os pedidos | Quais pedidos deseja "
        "cancelar? | Lista de identificadores de pedidos a cancelar. |"
    ) in page
    assert "| `data.results[].protocol` | string | no | Protocolo do cancelamento. |" in page
    assert (
        "| `ORDER_SERVICE_UNAVAILABLE` | the tool | yes | Tente novamente em alguns minutos. |"
        in page
    )
    assert "- Pre-validator: none" in page
    assert '"order_ids": [\n    "P-100"\n  ]' in page  # from the type's `examples`
    assert not re.search(r"[ \t]$", page, re.M) and "\n\n\n" not in page


@pytest.fixture
def config(tmp_path: Path) -> Path:
    folder = tmp_path / "cfg"
    ignore = shutil.ignore_patterns("generated", "mcp-tools.json", "docs")
    shutil.copytree(RETAIL, folder, ignore=ignore)
    return folder


def _build(config: Path, *, write: bool = True) -> verbs.BuildResult:
    return verbs.build(
        config, config / "generated" / "mcp_tools", config / "mcp-tools.json",
        write=write, cwd=config, docs_dir=config / "docs",
    )  # fmt: skip


def _codes(result: verbs.BuildResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def test_build_writes_the_docs_and_check_compares_them(config: Path) -> None:
    assert _build(config).written
    docs = config / "docs"
    assert sorted(os.listdir(docs)) == [
        workspace.MANIFEST, "llms-full.txt", "llms.txt", "retail.md"
    ]  # fmt: skip
    assert _codes(_build(config, write=False)) == []
    (docs / "retail.md").write_text("edited\n")
    (docs / "notes.md").write_text("mine\n")  # a user's file: never reported, never removed
    (docs / "llms.txt").unlink()
    stale = _build(config, write=False)
    assert sorted(_codes(stale)) == ["output-changed", "output-missing"]
    assert {d.span.path for d in stale.diagnostics} == {"docs/retail.md", "docs/llms.txt"}
    assert _build(config).written and _codes(_build(config, write=False)) == []
    assert (docs / "notes.md").read_text() == "mine\n"


def test_a_server_gone_leaves_an_orphaned_page(config: Path) -> None:
    assert _build(config).written
    path = config / "tools.yaml"
    moved = path.read_text().replace("mcp_server: retail", "mcp_server: loja")
    # a move is a break (tool-moved, decision 0144): each tool's next major version
    bumped = re.sub(r"version: (\d+)\.0\.0", lambda m: f"version: {int(m[1]) + 1}.0.0", moved)
    path.write_text(bumped)
    assert "output-orphaned" in _codes(_build(config, write=False))
    built = _build(config)
    assert built.written, built.diagnostics
    assert sorted(p.name for p in (config / "docs").glob("*.md")) == ["loja.md"]


def test_a_users_page_is_never_overwritten(config: Path) -> None:
    (config / "docs").mkdir()
    (config / "docs" / "retail.md").write_text("mine\n")
    refused = _build(config)
    assert _codes(refused) == ["output-not-owned"] and not refused.written
    assert refused.diagnostics[0].span.path == "docs/retail.md"
    assert (config / "docs" / "retail.md").read_text() == "mine\n"
    assert not (config / "generated" / "mcp_tools").exists()
    assert not (config / "mcp-tools.json").exists()


def test_docs_and_package_are_written_as_one(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _build(config).written
    edit = config / "tools.yaml"
    edit.write_text(edit.read_text().replace("version: 2.0.0", "version: 2.0.1", 1))
    before = {p: p.read_bytes() for p in config.rglob("*") if p.is_file()}
    from toolc.workspace import staging

    real = staging.write_new

    def failing(path: Path, data: bytes) -> None:
        if path.name == "llms.txt":  # the docs are staged after the package
            raise OSError(28, "No space left on device", str(path))
        real(path, data)

    monkeypatch.setattr(staging, "write_new", failing)
    failed = _build(config)
    assert _codes(failed) == ["io-error"] and not failed.written
    after = {p: p.read_bytes() for p in config.rglob("*") if p.is_file()}
    assert after == before
    assert not [p for p in config.iterdir() if ".toolc-" in p.name]


def test_the_no_op_build_covers_the_docs(config: Path) -> None:
    from toolc.cache.uptodate import is_up_to_date

    assert _build(config).written
    out, snapshot, docs = (
        config / "generated" / "mcp_tools",
        config / "mcp-tools.json",
        config / "docs",
    )
    assert is_up_to_date(config, out, snapshot, docs_dir=docs)
    (docs / "llms.txt").write_text("edited\n")
    assert is_up_to_date(config, out, snapshot)  # the package alone is still fresh
    assert not is_up_to_date(config, out, snapshot, docs_dir=docs)


def test_toolc_docs_and_the_docs_out_setting(config: Path) -> None:
    done = run_toolc("docs", ".", cwd=config)
    assert done.returncode == 0, done.stderr
    assert "wrote docs" in done.stderr and (config / "docs" / "llms.txt").is_file()
    (config / "pyproject.toml").write_text('[tool.toolc]\ndocs_out = "reference"\n')
    built = run_toolc("build", ".", cwd=config)
    assert built.returncode == 0, built.stderr
    assert (config / "reference" / "retail.md").read_bytes() == (
        config / "docs" / "retail.md"
    ).read_bytes()
    (config / "reference" / "retail.md").write_text("stale\n")
    checked = run_toolc("check", ".", "--diff", cwd=config)
    assert checked.returncode == 1 and "reference/retail.md" in checked.stderr
    # --diff shows the docs too, under their directory's name
    assert "--- a/reference/retail.md\n+++ b/reference/retail.md\n" in checked.stdout
    assert "-stale\n" in checked.stdout and "a/reference/llms.txt" not in checked.stdout
    inside = run_toolc("build", ".", "--docs-out", "generated/mcp_tools/docs", cwd=config)
    assert inside.returncode == 2 and "must not hold one another" in inside.stderr


CEILINGS = """tools:
  lookup:
    version: 1.0.0
    title: Lookup
    description: Looks a thing up by its name.
    mcp_server: shop
    tool_type: query
    requires: [name]
    args_schema:
      name: {type: string, description: The thing's name.}
  browse:
    version: 1.0.0
    title: Browse
    description: Lists the things there are.
    mcp_server: shop
    tool_type: query
    response_ceiling_bytes: 40000
  echo:
    version: 1.0.0
    title: Echo
    description: Echoes the message back, from the origin server.
    mcp_server: relay
    tool_type: query
    args_schema:
      message: {type: string, description: What to echo.}
    proxy: {tool: echo, command: [origin-server, stdio]}
servers:
  shop: {response_ceiling_bytes: 20000}
"""


def test_ceilings_budgets_and_proxied_servers_are_stated(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(CEILINGS)
    files = _reference(tmp_path)
    shop, relay = files["shop.md"].decode(), files["relay.md"].decode()
    registry = verbs.compile_config(tmp_path, cwd=tmp_path).files["registry.py"].decode()
    reserves = [int(n) for n in re.findall(r"response_reserve_bytes=(\d+)", registry)]
    assert len(reserves) == 2  # browse, lookup: the budget the handler sees
    assert "Default response ceiling: 20000 bytes" in shop
    assert (
        f"Response ceiling: 40000 bytes of the answer's text, envelope and embedded text resources included; data budget {40000 - reserves[0]} bytes"
        in shop
    )
    assert (
        f"Response ceiling: 20000 bytes of the answer's text, envelope and embedded text resources included (the server's default); data budget {20000 - reserves[1]} bytes"
        in shop
    )
    assert "all proxied" in relay and "Every tool answers with one envelope" not in relay
    assert "Response ceiling" not in relay and "Default response ceiling" not in relay
    index = files["llms.txt"].decode()
    assert "Every answer but those of 1 proxied tool(s) is one envelope" in index
    assert (
        "`echo` 1.0.0. Echoes the message back, from the origin server. Proxied to `echo`" in index
    )


RETURNS = """\
tools:
{tools}types:
  Order:
    type: object
    required: [id]
    properties:
      id: {{type: string, description: The order's id.}}
      next: {{$ref: '#/types/Order'}}
"""


def test_data_of_a_shared_type_or_no_object_is_described(tmp_path: Path) -> None:
    """`returns: {$ref: '#/types/Order'}` lists Order's fields (a recursive one named,
    not entered); a list or a union is one row for `data`: neither is "not described"."""
    returns = {
        "one": "{$ref: '#/types/Order'}",
        "many": "{type: array, items: {type: string}}",
        "either": "{oneOf: [{type: string}, {type: integer}], description: Either.}",
    }
    tools = "".join(
        f"  {name}:\n    version: 1.0.0\n    description: D.\n    mcp_server: s\n"
        f"    tool_type: query\n    returns: {schema}\n"
        for name, schema in returns.items()
    )
    (tmp_path / "tools.yaml").write_text(RETURNS.format(tools=tools))
    page = _reference(tmp_path)["s.md"].decode()
    assert "not described" not in page
    assert "| `data.id` | string | yes | The order's id. |" in page
    assert "| `data.next` | Order | no | — |" in page
    assert "| `data` | array of string | yes | — |" in page
    assert "| `data` | string \\| integer | yes | Either. |" in page


SECTIONS = """\
tools:
  get_order:
    version: 1.0.0
    description: Gets an order.
    mcp_server: Optional
    tool_type: query
    args_schema:
      id: {type: string, description: The order.}
  arguments:
    version: 1.0.0
    description: Named as a section.
    mcp_server: Optional
    tool_type: query
"""


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading (github-slugger): lower case, punctuation but `-` and
    `_` dropped, spaces as `-`."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def test_a_tool_named_as_a_section_keeps_its_own_anchor(tmp_path: Path) -> None:
    """A tool named `arguments` took the anchor of the first tool's `Arguments` heading, and
    a server named `Optional` became llms.txt's section of links an agent may skip."""
    (tmp_path / "tools.yaml").write_text(SECTIONS, encoding="utf-8")
    done = run_toolc("docs", str(tmp_path), "--docs-out", str(tmp_path / "docs"))
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "docs" / "Optional.md").read_text(encoding="utf-8")
    ids = re.findall(r'<a id="([^"]+)"></a>', page)
    headings = [_slug(h) for h in re.findall(r"^#+ (.*)$", page, re.M)]
    assert ids == ["tool.arguments", "tool.get_order"] and "arguments" in headings
    assert not set(ids) & set(headings)
    index = (tmp_path / "docs" / "llms.txt").read_text(encoding="utf-8")
    assert "## Optional" not in index and "## MCP server `Optional`" in index
    assert "(Optional.md#tool.arguments)" in index
