# Compiled by Jinja from templates/envelope.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = '9a6c16320b12c0df1addec91cadedd77cb84d96d861039fd8ea8b8d86e97dd74'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'envelope.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_envelope_version = resolve('envelope_version')
    l_0_framework_codes = resolve('framework_codes')
    l_0_framework_tuple = resolve('framework_tuple')
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""The response envelope every tool answers with (ADR-016): `{ok: true, data, meta}` or\n`{ok: false, error: {code, message, details?, retryable?, hint?, errorId?}, meta}`.\n"""\n\nfrom __future__ import annotations\n\nimport json\nfrom typing import Any, Generic, Literal, TypeVar, Union\n\nfrom pydantic import BaseModel, ConfigDict, Field\n\nENVELOPE_VERSION = "'
    yield str((undefined(name='envelope_version') if l_0_envelope_version is missing else l_0_envelope_version))
    yield '"\n\nFrameworkErrorCode = '
    yield str((undefined(name='framework_codes') if l_0_framework_codes is missing else l_0_framework_codes))
    yield '\nFRAMEWORK_ERROR_CODES: tuple[FrameworkErrorCode, ...] = ('
    for l_1_code in (undefined(name='framework_tuple') if l_0_framework_tuple is missing else l_0_framework_tuple):
        _loop_vars = {}
        pass
        yield '\n    '
        yield str(l_1_code)
        yield ','
    l_1_code = missing
    yield '\n)\n\nDataT = TypeVar("DataT")\n\n\ndef _wire_value(value: Any) -> Any:\n    """Data as JSON: a model\'s fields that were set (an omitted optional field stays\n    omitted, an explicit null where the schema allows it stays null)."""\n    if isinstance(value, BaseModel):\n        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)\n    if isinstance(value, list):\n        return [_wire_value(v) for v in value]\n    return value\n\n\ndef _compact(value: Any) -> str:\n    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))\n\n\nclass Meta(BaseModel):\n    """Which tool answered, and the version of its contract."""\n\n    model_config = ConfigDict(extra="forbid", strict=True)\n\n    tool: str\n    version: str\n\n\nclass ErrorInfo(BaseModel):\n    """Why a call failed. Clients accept codes they do not know yet."""\n\n    # Built by handlers in Python (error_id=...) as well as read from the wire (errorId).\n    model_config = ConfigDict(\n        extra="forbid",\n        strict=True,\n        validate_by_name=True,\n        validate_by_alias=True,\n        serialize_by_alias=True,\n    )\n\n    code: str\n    message: str\n    details: Any = None\n    retryable: bool | None = None\n    hint: str | None = None\n    error_id: str | None = Field(default=None, alias="errorId")\n\n\nclass Ok(BaseModel, Generic[DataT]):\n    """A successful call."""\n\n    ok: Literal[True] = True\n    data: DataT\n    meta: Meta\n\n    def wire(self) -> dict[str, Any]:\n        """The envelope as `structuredContent`: what the tool\'s outputSchema accepts."""\n        return {\n            "ok": True,\n            "data": _wire_value(self.data),\n            "meta": self.meta.model_dump(),\n        }\n\n    def wire_json(self) -> str:\n        """The wire form: compact JSON, non-ASCII kept; the text block and size accounting."""\n        return _compact(self.wire())\n\n\nclass Err(BaseModel):\n    """A failed call. A multi-item tool\'s failure may still carry its per-item data."""\n\n    ok: Literal[False] = False\n    error: ErrorInfo\n    meta: Meta\n    data: Any = None\n\n    def wire(self) -> dict[str, Any]:\n        """The envelope as `structuredContent`: what the tool\'s outputSchema accepts."""\n        error = self.error.model_dump(mode="json", by_alias=True, exclude_none=True)\n        sealed: dict[str, Any] = {\n            "ok": False,\n            "error": error,\n            "meta": self.meta.model_dump(),\n        }\n        if self.data is not None:\n            sealed["data"] = _wire_value(self.data)\n        return sealed\n\n    def wire_json(self) -> str:\n        """The wire form: compact JSON, non-ASCII kept; the text block and size accounting."""\n        return _compact(self.wire())\n\n\n# A generic alias over a pydantic generic model: the `|` form cannot be subscripted.\nEnvelope = Union[Ok[DataT], Err]  # noqa: UP007\n'

blocks = {}
debug_info = '1=15&13=17&15=19&17=21&18=25'
