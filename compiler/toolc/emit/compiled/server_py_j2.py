# Compiled by Jinja from templates/server.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = '19308a55fd5c8426c95a661aa82e0a271e3db02feaf62f51f1ff2c2211c361e8'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'server.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_servers = resolve('servers')
    l_0_handler_import = resolve('handler_import')
    l_0_server_literal = resolve('server_literal')
    l_0_versions = resolve('versions')
    l_0_metrics = resolve('metrics')
    l_0_overloads = resolve('overloads')
    l_0_create_many = resolve('create_many')
    l_0_create_single = resolve('create_single')
    l_0_main_def = resolve('main_def')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""The package\'s MCP servers on the SDK\'s low-level `Server`.\n\n`create_server(handlers, server=...)` serves the enabled tools of one `mcp_server` exactly as\ntools.json publishes them, running every call through the same steps: arguments validated,\npre-validation, confirmation, the handler, sealing. `main(handlers)` runs it on stdio, or on\nStreamable HTTP with `--http`.\n"""\n\nfrom __future__ import annotations\n\nimport argparse\nimport json\nfrom collections.abc import Sequence\nfrom functools import cache\nfrom importlib import resources\nfrom typing import TYPE_CHECKING, Any, Literal'
    if (t_1((undefined(name='servers') if l_0_servers is missing else l_0_servers)) > 1):
        pass
        yield ', overload'
    yield "\n\nfrom mcp.server.lowlevel import Server\n\nfrom . import server_runtime\nfrom .registry import ALL_TOOLS\nfrom .server_runtime import (\n    AuditHook,\n    Observer,\n    SingleUseStore,\n    build_server,\n    run_http,\n    run_stdio,\n    token_from_env,\n)\n\nif TYPE_CHECKING:  # annotations only; importing each tool's models slows start-up\n"
    yield str((undefined(name='handler_import') if l_0_handler_import is missing else l_0_handler_import))
    yield '\n\nServerName = '
    yield str((undefined(name='server_literal') if l_0_server_literal is missing else l_0_server_literal))
    yield "\n# Each server's version: the highest version among its tools.\nVERSIONS: dict[str, str] = {"
    for (l_1_name, l_1_version) in (undefined(name='versions') if l_0_versions is missing else l_0_versions):
        _loop_vars = {}
        pass
        yield '\n    '
        yield str(l_1_name)
        yield ': '
        yield str(l_1_version)
        yield ','
    l_1_name = l_1_version = missing
    yield '\n}\n# Whether each server records `mcp_tool_duration_seconds` unless told otherwise (`servers:`).\nMETRICS: dict[str, bool] = {'
    for (l_1_name, l_1_on) in (undefined(name='metrics') if l_0_metrics is missing else l_0_metrics):
        _loop_vars = {}
        pass
        yield '\n    '
        yield str(l_1_name)
        yield ': '
        yield str(l_1_on)
        yield ','
    l_1_name = l_1_on = missing
    yield '\n}\n_PACKAGE = __name__.rpartition(".")[0]\n\n\n@cache\ndef _descriptors() -> list[dict[str, Any]]:\n    text = resources.files(_PACKAGE).joinpath("tools.json").read_text(encoding="utf-8")\n    tools: list[dict[str, Any]] = json.loads(text)["tools"]\n    return tools\n'
    if (t_1((undefined(name='servers') if l_0_servers is missing else l_0_servers)) > 1):
        pass
        for l_1_line in (undefined(name='overloads') if l_0_overloads is missing else l_0_overloads):
            _loop_vars = {}
            pass
            yield '\n\n@overload\n'
            yield str(l_1_line)
            yield '\n'
        l_1_line = missing
        yield '\n\n'
        yield str((undefined(name='create_many') if l_0_create_many is missing else l_0_create_many))
    else:
        pass
        yield '\n\n'
        yield str((undefined(name='create_single') if l_0_create_single is missing else l_0_create_single))
    yield '\n    """The SDK server for the tools of `server`, answering with `handlers`.\n\n    `metrics`: record `mcp_tool_duration_seconds` (needs prometheus_client; served at\n    /metrics over HTTP; None: the server\'s setting in `METRICS`). `observer`: called with one\n    `Observation` (tool, version, error_type, seconds, confirmed) per answered call, on any\n    transport: the stdio servers\' metrics hook. `audit`: called with one `AuditRecord` per\n    answered call, after sealing; its failures are logged, never sent.\n\n    Several processes answering each other\'s 2026-07-28 confirmations share\n    `request_state_key` (else the environment\'s TOOLC_REQUEST_STATE_KEY) and a\n    `request_state_store` (such as `FileStore(path)`).\n\n    `resources`, `resource_templates`, `prompts` and `complete` (a completion handler for\n    prompt arguments and template variables) are served beside the tools; a capability is\n    declared only for what is given. logging/setLevel is always answered.\n    """\n    return build_server(\n        ALL_TOOLS,\n        _descriptors(),\n        handlers,\n        server=server,\n        name=server,\n        version=VERSIONS[server],\n        metrics=METRICS[server] if metrics is None else metrics,\n        observer=observer,\n        audit=audit,\n        request_state_key=request_state_key,\n        request_state_store=request_state_store,\n        resources=resources,\n        resource_templates=resource_templates,\n        prompts=prompts,\n        complete=complete,\n    )\n\n\n'
    yield str((undefined(name='main_def') if l_0_main_def is missing else l_0_main_def))
    yield '\n    """Run a server: `python my_server.py [--server NAME] [--http [--host H] [--port P]\n    [--allow-host NAME ...] [--auth-token-env VAR]]`.\n\n    `server` pins the server these handlers implement (a scaffold passes its own); without\n    it `--server` chooses, and must when the package has several servers: this never\n    guesses among them. Over HTTP the Host header must be a loopback name or one given\n    with `--allow-host`; `--auth-token-env VAR` requires `Authorization: Bearer <token>`,\n    the token read from the environment variable VAR.\n    """\n    names = sorted(VERSIONS) if server is None else [server]\n    parser = argparse.ArgumentParser(description="An MCP server generated by toolc.")\n    parser.add_argument(\n        "--server", choices=names, default=names[0] if len(names) == 1 else None\n    )\n    parser.add_argument("--http", action="store_true", help="Streamable HTTP.")\n    parser.add_argument("--host", default="127.0.0.1")\n    parser.add_argument("--port", type=int, default=8000)\n    parser.add_argument(\n        "--allow-host",\n        action="append",\n        default=[],\n        metavar="NAME",\n        help="A Host clients may send besides the loopback names (name:* for any port).",\n    )\n    parser.add_argument(\n        "--metrics",\n        action=argparse.BooleanOptionalAction,\n        default=None,\n        help="Record mcp_tool_duration_seconds (at /metrics over HTTP).",\n    )\n    parser.add_argument(\n        "--auth-token-env",\n        metavar="VAR",\n        help="Require a bearer token, read from the environment variable VAR.",\n    )\n    options = parser.parse_args(argv)\n    if options.server is None:\n        parser.error(\n            "this package has several MCP servers (" + ", ".join(names) + "): "\n            "choose one with --server NAME"\n        )\n    token = None\n    if options.auth_token_env is not None:\n        try:\n            token = token_from_env(options.auth_token_env)\n        except ValueError as exc:\n            parser.error(str(exc))\n    app = create_server(handlers, options.server, metrics=options.metrics)\n    if options.http:\n        run_http(\n            app,\n            options.host,\n            options.port,\n            allowed_hosts=options.allow_host,\n            token=token,\n        )\n    else:\n        run_stdio(app)\n'

blocks = {}
debug_info = '1=27&17=29&34=33&36=35&39=37&40=41&45=47&46=51&57=57&58=59&61=63&64=67&67=71&104=73'
