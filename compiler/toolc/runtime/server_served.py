"""A served tool as its calls use it: its spec and handler, and the validators,
checks and names its calls need, each made once on first use."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from functools import cached_property, lru_cache
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from .server_ceilings import ceiling_of
from .server_content import DeclaredContent
from .server_fields import problems
from .server_items import BadReturn
from .server_keys import array_arguments, items_argument
from .server_outputs import FormatCheck
from .server_types import ToolContext, ToolSpecLike, data_adapter

Handler = Callable[[Any, ToolContext], Awaitable[Any]]


class ServedTool:
    """One served (or pre-validating) tool, with what its calls need, made once."""

    def __init__(self, spec: ToolSpecLike, handler: Handler) -> None:
        self.spec = spec
        self.handler = handler
        self.labels: dict[str, str] = {}
        self.formats: FormatCheck | None = None  # its data schema's formats, if any
        self.content = DeclaredContent()  # its published `_meta.content`, if any
        self.ceiling = ceiling_of(spec)  # its response ceiling, if any

    @cached_property
    def items_arg(self) -> str | None:
        return items_argument(getattr(self.spec, "input_schema", None) or {})

    @cached_property
    def args_model(self) -> type[BaseModel]:
        return self.spec.args_model

    # The models' own validators: `model_validate` and `TypeAdapter.validate_python`
    # pass six keyword arguments, all None, into pydantic-core, which took 0.3-0.5 µs
    # of a 0.6-1 µs validation (measured); the result is the same.
    @cached_property
    def _data_adapter(self) -> TypeAdapter[Any]:
        return data_adapter(self.spec.data_model)

    @cached_property
    def _data(self) -> Callable[[Any], Any]:
        return self._data_adapter.validator.validate_python

    @cached_property
    def _args(self) -> Callable[[Any], BaseModel]:
        return self.args_model.__pydantic_validator__.validate_python

    @cached_property
    def handler_model(self) -> type[BaseModel]:
        """The arguments as the handler receives them (a pre-validator resolves)."""
        return self.spec.resolved_model or self.args_model

    @cached_property
    def _resolved(self) -> Callable[[Any], BaseModel]:
        return self.handler_model.__pydantic_validator__.validate_python

    @cached_property
    def _handler_names(self) -> frozenset[str] | None:
        """The wire names of the handler's arguments; None when it takes any other."""
        model = self.handler_model
        if model.model_config.get("extra") == "allow":
            return None
        return frozenset(
            f.alias if isinstance(f.alias, str) else name
            for name, f in model.model_fields.items()
        )

    @cached_property
    def _counted(self) -> str | None:
        """The argument whose items a multi-item tool's results answer one each: its one
        array argument. Among several, which one holds the items is a guess (the keys'
        rule and `toolc test` may choose apart), so none is counted."""
        schema = getattr(self.spec, "input_schema", None) or {}
        arrays = array_arguments(schema)
        return arrays[0] if self.spec.multi_item and len(arrays) == 1 else None

    def items_count(self, args: BaseModel) -> int | None:
        """How many items a multi-item call's handler received in its items argument
        (after any resolution); None when the tool has no items list to count."""
        name = self._counted
        if name is None:
            return None
        value = getattr(args, _attribute(type(args), name), None)
        return len(value) if isinstance(value, list) else None

    def strays(self, named: Mapping[str, Any]) -> list[str]:
        """The keys of `named` that are not arguments of the handler's form."""
        known = self._handler_names
        return [] if known is None else sorted(k for k in named if k not in known)

    def check(self, data: Any) -> object:
        """`data` as the tool's published schema judges it; BadReturn otherwise."""
        try:
            checked = self._data(data)
        except ValidationError as exc:
            problem = problems(exc, "data", self._data_adapter.core_schema)
            raise BadReturn("data outside the tool's schema", problem) from exc
        wrong = self.formats.problems(data) if self.formats is not None else []
        if wrong:
            raise BadReturn("data whose formats JSON clients refuse", wrong)
        return checked

    def parse(self, arguments: Mapping[str, Any]) -> BaseModel:
        return self._args(arguments)

    def resolve(self, arguments: Mapping[str, Any]) -> BaseModel:
        """Arguments as the handler receives them (the pre-validator's resolution)."""
        return self._resolved(arguments)


@lru_cache(maxsize=1024)
def _attribute(model: type[BaseModel], wire: str) -> str:
    """The model's attribute for the argument whose wire name is `wire`."""
    for name, f in model.model_fields.items():
        if wire in (f.alias, f.validation_alias) or (f.alias is None and name == wire):
            return name
    return wire
