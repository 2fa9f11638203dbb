# Compiled by Jinja from templates/scaffold.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = '4c77098bb2b8d56d4fb5eaa2e7d90d6f90aec76261e38c3269d87a662a4cd664'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'scaffold.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_server = resolve('server')
    l_0_proxied_only = resolve('proxied_only')
    l_0_imports = resolve('imports')
    l_0_protocol = resolve('protocol')
    l_0_methods = resolve('methods')
    l_0_serve_def = resolve('serve_def')
    l_0_main_call = resolve('main_call')
    pass
    yield '"""The `'
    yield str((undefined(name='server') if l_0_server is missing else l_0_server))
    yield '` MCP server: '
    if (undefined(name='proxied_only') if l_0_proxied_only is missing else l_0_proxied_only):
        pass
        yield 'its tools are proxied (each call goes\nto its origin), so there is no handler to fill in: run this file'
    else:
        pass
        yield 'fill in each handler, then run this file'
    yield '\n(`python '
    yield str((undefined(name='server') if l_0_server is missing else l_0_server))
    yield '_server.py`, or `--http` for Streamable HTTP).\n\nWritten once by `toolc scaffold`; toolc never overwrites it. Raise\n`ToolFailure(code, message)` from `server_runtime` for a declared error.\n"""\n\nfrom __future__ import annotations\n\n'
    for l_1_line in (undefined(name='imports') if l_0_imports is missing else l_0_imports):
        _loop_vars = {}
        pass
        yield str(l_1_line)
        yield '\n'
    l_1_line = missing
    yield '\n\nclass Handlers:\n    """The tools of `'
    yield str((undefined(name='server') if l_0_server is missing else l_0_server))
    yield '` ('
    yield str((undefined(name='protocol') if l_0_protocol is missing else l_0_protocol))
    yield ')."""\n'
    for l_1_m in (undefined(name='methods') if l_0_methods is missing else l_0_methods):
        _loop_vars = {}
        pass
        yield '\n'
        yield str(environment.getattr(l_1_m, 'signature'))
        yield '\n'
        if environment.getattr(l_1_m, 'doc'):
            pass
            yield str(environment.getattr(l_1_m, 'doc'))
            yield '\n'
        yield '        raise NotImplementedError('
        yield str(environment.getattr(l_1_m, 'todo'))
        yield ')\n'
    l_1_m = missing
    yield '\n\n'
    yield str((undefined(name='serve_def') if l_0_serve_def is missing else l_0_serve_def))
    yield '\n    '
    yield str((undefined(name='main_call') if l_0_main_call is missing else l_0_main_call))
    yield '\n\n\nif __name__ == "__main__":\n    serve(Handlers())  # mypy proves that Handlers implements the protocol\n'

blocks = {}
debug_info = '1=19&3=28&11=30&15=37&16=41&17=45&18=47&19=52&22=56&23=58'
