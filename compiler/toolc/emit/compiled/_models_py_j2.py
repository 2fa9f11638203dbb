# Compiled by Jinja from templates/_models.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = '2c0a1a638ccedb2d3730fad092e66ef3a541285d617cc2ee9ca3e08ea9e533bc'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = '_models.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_module = resolve('module')
    pass
    for l_1_group in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'imports'):
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
    for l_1_c in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'classes'):
        _loop_vars = {}
        pass
        yield '\n\n'
        yield str(environment.getattr(l_1_c, 'header'))
        yield '\n'
        if environment.getattr(l_1_c, 'doc'):
            pass
            yield str(environment.getattr(l_1_c, 'doc'))
            yield '\n\n'
        yield '    model_config = ConfigDict(\n        extra="'
        yield str(environment.getattr(l_1_c, 'extra'))
        yield '",\n        strict=True,\n        regex_engine="rust-regex",\n        validate_by_alias=True,\n        serialize_by_alias=True,\n    )\n'
        if environment.getattr(l_1_c, 'check'):
            pass
            yield str(environment.getattr(l_1_c, 'check'))
            yield '\n'
        if environment.getattr(l_1_c, 'fields'):
            pass
            yield '\n'
            for l_2_field in environment.getattr(l_1_c, 'fields'):
                _loop_vars = {}
                pass
                yield str(l_2_field)
                yield '\n'
            l_2_field = missing
    l_1_c = missing
    l_1_loop = missing
    for l_1_a, l_1_loop in LoopContext(environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'aliases'), undefined):
        _loop_vars = {}
        pass
        yield '\n'
        if (environment.getattr(l_1_loop, 'first') and environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'classes')):
            pass
            yield '\n'
        for l_2_line in environment.getattr(l_1_a, 'comment'):
            _loop_vars = {}
            pass
            yield str(l_2_line)
            yield '\n'
        l_2_line = missing
        yield str(environment.getattr(l_1_a, 'statement'))
        yield '\n'
    l_1_loop = l_1_a = missing
    if environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'rebuilt'):
        pass
        yield '\n'
        for l_1_name in environment.getattr((undefined(name='module') if l_0_module is missing else l_0_module), 'rebuilt'):
            _loop_vars = {}
            pass
            yield str(l_1_name)
            yield '.model_rebuild()\n'
        l_1_name = missing

blocks = {}
debug_info = '2=12&3=16&6=23&8=27&9=29&12=34&18=36&19=40&20=43&23=51&24=55&25=58&26=64&28=67&29=70'
