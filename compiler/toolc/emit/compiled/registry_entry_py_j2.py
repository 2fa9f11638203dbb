# Compiled by Jinja from templates/registry_entry.py.j2 (make templates). DO NOT EDIT.
SOURCE_SHA256 = 'e4266c1426839e4642370805bd17364ec4432da8da9620201b7469e1088ff228'
JINJA = '3.1.6'
OPTIONS = "('{%', '%}', '{{', '}}', '{#', '#}', None, None, False, False, '\\n', True, False, True, False, [], ['abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape', 'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'items', 'join', 'last', 'length', 'list', 'lower', 'map', 'max', 'min', 'pprint', 'random', 'reject', 'rejectattr', 'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum', 'title', 'tojson', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr'], ['!=', '<', '<=', '==', '>', '>=', 'boolean', 'callable', 'defined', 'divisibleby', 'eq', 'equalto', 'escaped', 'even', 'false', 'filter', 'float', 'ge', 'greaterthan', 'gt', 'in', 'integer', 'iterable', 'le', 'lessthan', 'lower', 'lt', 'mapping', 'ne', 'none', 'number', 'odd', 'sameas', 'sequence', 'string', 'test', 'true', 'undefined', 'upper'])"
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'registry_entry.py.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_e = resolve('e')
    pass
    yield '    '
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'name'))
    yield ': ToolSpec(\n        name='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'name'))
    yield ',\n        version='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'version'))
    yield ',\n        title='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'title'))
    yield ',\n        description='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'description'))
    yield ',\n        mcp_server='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'mcp_server'))
    yield ',\n        enabled='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'enabled'))
    yield ',\n        module='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'module'))
    yield ',\n        annotations='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'annotations'))
    yield ',\n        operation_type='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'operation_type'))
    yield ',\n        require_confirmation='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'require_confirmation'))
    yield ',\n        pre_validation='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'pre_validation'))
    yield ',\n        multi_item='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'multi_item'))
    yield ',\n        workflow='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'workflow'))
    yield ',\n        unknown_args='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'unknown_args'))
    yield ',\n        errors='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'errors'))
    yield ',\n        envelope_reserve_bytes='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'envelope_reserve_bytes'))
    yield ',\n        args_name='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'args_name'))
    yield ',\n        data_name='
    yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'data_name'))
    yield ','
    if ('resolved_name' in (undefined(name='e') if l_0_e is missing else l_0_e)):
        pass
        yield '\n        resolved_name='
        yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'resolved_name'))
        yield ','
    if ('response_ceiling_bytes' in (undefined(name='e') if l_0_e is missing else l_0_e)):
        pass
        yield '\n        response_ceiling_bytes='
        yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'response_ceiling_bytes'))
        yield ',\n        response_reserve_bytes='
        yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'response_reserve_bytes'))
        yield ','
    if ('proxy' in (undefined(name='e') if l_0_e is missing else l_0_e)):
        pass
        yield '\n        proxy='
        yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'proxy'))
        yield ','
    if ('handler_timeout_seconds' in (undefined(name='e') if l_0_e is missing else l_0_e)):
        pass
        yield '\n        handler_timeout_seconds='
        yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'handler_timeout_seconds'))
        yield ','
    if ('operation_id' in (undefined(name='e') if l_0_e is missing else l_0_e)):
        pass
        yield '\n        operation_id='
        yield str(environment.getitem((undefined(name='e') if l_0_e is missing else l_0_e), 'operation_id'))
        yield ','
    yield '\n    ),\n'

blocks = {}
debug_info = '1=13&2=15&3=17&4=19&5=21&6=23&7=25&8=27&9=29&10=31&11=33&12=35&13=37&14=39&15=41&16=43&17=45&18=47&19=49&20=51&21=54&23=56&24=59&25=61&27=63&28=66&30=68&31=71&33=73&34=76'
