# Compiled by Jinja from templates/client.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = '40309f3ecd4243025551dd269e34c0a2892f6d1bca586f8f4c68ef67e0560c19'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'client.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_imports = resolve('imports')
    l_0_classes = resolve('classes')
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""Typed clients of the package\'s MCP servers: one method per tool, each argument a typed\nkeyword, each answer an `Envelope` (`Success` with typed `data`, or `Failure` with the\n`error`). Arguments are validated here before anything is sent; the server\'s confirmation\nquestion goes to the `confirm` callback given to `connect`. Every method also takes\n`read_timeout_seconds` and `idempotency_key` (a key of the caller\'s own, which a retry of the\nsame request sends again), as `ToolClient.call` does.\n"""\n'
    for l_1_group in (undefined(name='imports') if l_0_imports is missing else l_0_imports):
        _loop_vars = {}
        pass
        yield '\n'
        for l_2_line in l_1_group:
            _loop_vars = {}
            pass
            yield str(l_2_line)
            yield '\n'
        l_2_line = missing
    l_1_group = missing
    yield '\n\nclass Unset(enum.Enum):\n    """The value of an optional argument that was not given (and is not sent)."""\n\n    UNSET = "UNSET"\n\n\nUNSET = Unset.UNSET\n\n\ndef _given(*pairs: tuple[str, object]) -> dict[str, Any]:\n    """The arguments given, by wire name."""\n    return {name: value for name, value in pairs if value is not UNSET}\n'
    for l_1_c in (undefined(name='classes') if l_0_classes is missing else l_0_classes):
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(environment.getattr(l_1_c, 'header'))
        yield '\n    """The tools of the MCP server `'
        yield str(environment.getattr(l_1_c, 'server'))
        yield '`.\n\n    `async with '
        yield str(environment.getattr(l_1_c, 'name'))
        yield '.connect(params, confirm=ask) as tools:`\n    """\n\n    TOOLS = ALL_TOOLS\n'
        for l_2_m in environment.getattr(l_1_c, 'methods'):
            _loop_vars = {}
            pass
            yield '\n'
            yield str(environment.getattr(l_2_m, 'signature'))
            yield '\n'
            if environment.getattr(l_2_m, 'doc'):
                pass
                yield str(environment.getattr(l_2_m, 'doc'))
                yield '\n'
            yield str(environment.getattr(l_2_m, 'call'))
            yield '\n'
        l_2_m = missing
    l_1_c = missing

blocks = {}
debug_info = '1=14&9=16&10=20&26=28&28=32&29=34&31=36&35=38&36=42&37=44&38=48'
