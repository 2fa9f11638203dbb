# Compiled by Jinja from templates/handlers.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = 'cea368606782937db734b058fa36e196d6fafc84c38447be29176f8c69637584'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'handlers.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header = resolve('header')
    l_0_imports = resolve('imports')
    l_0_aliases = resolve('aliases')
    l_0_protocols = resolve('protocols')
    pass
    yield str((undefined(name='header') if l_0_header is missing else l_0_header))
    yield '\n"""What a server\'s handlers implement: one typed method per tool it serves.\n\nWrite a class with these methods (`toolc scaffold` starts one) and pass an\ninstance to `server.create_server`; a tool raises `ToolFailure` for a\ndeclared error.\n"""\n'
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
    yield '\n'
    for l_1_alias in (undefined(name='aliases') if l_0_aliases is missing else l_0_aliases):
        _loop_vars = {}
        pass
        yield str(l_1_alias)
        yield '\n'
    l_1_alias = missing
    for l_1_p in (undefined(name='protocols') if l_0_protocols is missing else l_0_protocols):
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(environment.getattr(l_1_p, 'header'))
        yield '\n    """The tools of the MCP server `'
        yield str(environment.getattr(l_1_p, 'server'))
        yield '`, one method each."""\n'
        for l_2_m in environment.getattr(l_1_p, 'methods'):
            _loop_vars = {}
            pass
            yield '\n'
            yield str(environment.getattr(l_2_m, 'signature'))
            if environment.getattr(l_2_m, 'docstring'):
                pass
                yield '\n'
                yield str(environment.getattr(l_2_m, 'docstring'))
                yield '\n        ...'
            yield '\n'
        l_2_m = missing
    l_1_p = missing

blocks = {}
debug_info = '1=15&8=17&9=21&12=29&14=35&16=39&17=41&18=43&19=47&20=48&21=51'
