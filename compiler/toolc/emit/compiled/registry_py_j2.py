# Compiled by Jinja from templates/registry.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = '9307cec060fa5b0ad58cf53a8826eb65e7120651565e11d2ef8ca69d74e039ac'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'registry.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_tool_imports = resolve('tool_imports')
    l_0_typed_entries = resolve('typed_entries')
    l_0_tool_entries = resolve('tool_entries')
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""Every declared tool, typed: `TOOLS["<tool>"].args_model(...)` completes in an IDE.\n\nA tool\'s models and schemas load on first use, so importing the package stays fast however\nmany tools it declares.\n"""\n\nfrom __future__ import annotations\n\nimport importlib\nimport json\nfrom collections.abc import Mapping\nfrom dataclasses import dataclass\nfrom functools import cache\nfrom importlib import resources\nfrom types import MappingProxyType\nfrom typing import TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar, cast\n\nfrom pydantic import BaseModel\n\nif TYPE_CHECKING:'
    for l_1_line in (undefined(name='tool_imports') if l_0_tool_imports is missing else l_0_tool_imports):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(l_1_line)
    l_1_line = missing
    yield '\nArgsT = TypeVar("ArgsT", bound=BaseModel)\nDataT = TypeVar("DataT")\n\n\n@dataclass(frozen=True)\nclass ErrorSpec:\n    """A declared domain error."""\n\n    retryable: bool\n    hint: str | None\n\n\n@dataclass(frozen=True)\nclass PreValidation:\n    """The tool that checks a call\'s arguments before it runs, and what happens when it fails."""\n\n    tool: str\n    fail_open: bool\n\n\n@dataclass(frozen=True)\nclass Proxy:\n    """Where a proxied tool\'s calls go: the origin server and its tool (decision 0084)."""\n\n    tool: str\n    command: tuple[str, ...] | None\n    url: str | None\n    startup_timeout: float\n    call_timeout: float\n\n\n@dataclass(frozen=True)\nclass ToolSpec(Generic[ArgsT, DataT]):\n    """One tool\'s contract, as generated from tools.yaml and tool_policies.yaml."""\n\n    name: str\n    version: str\n    title: str\n    description: str\n    mcp_server: str\n    enabled: bool\n    module: str  # the tool\'s module, relative to this package\n    annotations: Mapping[str, Any]\n    operation_type: Literal["transactional", "read_only"]\n    require_confirmation: bool\n    pre_validation: PreValidation | None\n    multi_item: bool\n    workflow: bool\n    unknown_args: Literal["ignore", "forbid"]\n    errors: Mapping[str, ErrorSpec]\n    # Bytes `{"ok":true,"data":...,"meta":{...}}` adds around `data` in the compact wire\n    # form: the fixed part. A multi-item tool\'s normalized fields and a failure add more;\n    # `response_reserve_bytes` below is the whole reserve a ceiling discounts.\n    envelope_reserve_bytes: int\n    args_name: str\n    data_name: str\n    # The handler\'s model, where callers send another form its pre-validator resolves\n    # (`accepts`); None: the handler receives `args_model`.\n    resolved_name: str | None = None\n    # The most bytes its answer\'s text may take, envelope included (None: no ceiling), and the\n    # worst-case envelope around its data that the ceiling discounts (the data budget).\n    response_ceiling_bytes: int | None = None\n    response_reserve_bytes: int = 0\n    # A proxied tool\'s origin; None: the tool\'s handler answers.\n    proxy: Proxy | None = None\n    # `tool_policies` `handler_timeout_seconds`: past it the handler is cancelled (TOOL_TIMEOUT).\n    handler_timeout_seconds: float | None = None\n    # `multi_item.operation_id`: the item property holding each item\'s protocol/operation id.\n    operation_id: str | None = None\n\n    @property\n    def args_model(self) -> type[ArgsT]:\n        return cast(type[ArgsT], getattr(_module(self.module), self.args_name))\n\n    @property\n    def resolved_model(self) -> type[BaseModel] | None:\n        if self.resolved_name is None:\n            return None\n        return cast(type[BaseModel], getattr(_module(self.module), self.resolved_name))\n\n    @property\n    def data_model(self) -> Any:\n        return getattr(_module(self.module), self.data_name)\n\n    @property\n    def input_schema(self) -> Mapping[str, Any]:\n        return _schema(self.name, "input")\n\n    @property\n    def output_schema(self) -> Mapping[str, Any]:\n        return _schema(self.name, "output")\n\n\n_PACKAGE = __name__.rpartition(".")[0]\n\n\ndef _module(relative: str) -> Any:\n    return importlib.import_module(relative, _PACKAGE)\n\n\n@cache\ndef _schema(tool: str, kind: str) -> Mapping[str, Any]:\n    folder = resources.files(_PACKAGE).joinpath("schemas")\n    text = folder.joinpath(f"{tool}.{kind}.json").read_text(encoding="utf-8")\n    return MappingProxyType(json.loads(text))\n\n\nToolsByName = TypedDict(\n    "ToolsByName",\n    {'
    for (l_1_name, l_1_args, l_1_data) in (undefined(name='typed_entries') if l_0_typed_entries is missing else l_0_typed_entries):
        _loop_vars = {}
        pass
        yield '\n        '
        yield str(l_1_name)
        yield ': "ToolSpec['
        yield str(l_1_args)
        yield ', '
        yield str(l_1_data)
        yield ']",'
    l_1_name = l_1_args = l_1_data = missing
    yield '\n    },\n)\n\nTOOLS: ToolsByName = {'
    for l_1_block in (undefined(name='tool_entries') if l_0_tool_entries is missing else l_0_tool_entries):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(l_1_block)
    l_1_block = missing
    yield '\n}\n\nALL_TOOLS: Mapping[str, ToolSpec[Any, Any]] = MappingProxyType(\n    cast(dict[str, ToolSpec[Any, Any]], TOOLS)\n)\n'

blocks = {}
debug_info = '1=15&22=17&23=21&135=24&136=28&142=36&143=40'
