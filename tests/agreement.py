"""A package's args models judge instances as the published inputSchema does (the reference
validator): instances drawn from each tool's schema, half of them near misses; and an accepted
instance's wire form is accepted again, as the same model. Shared by the
random-config tests of both forms (test_random_verdicts, test_portable)."""

from __future__ import annotations

from typing import Any

import pydantic
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from instances import near_miss, valid
from reference import EcmaValidator


def assert_models_agree(data: st.DataObject, package: Any, seed: int, draws: int) -> None:
    for spec in package.TOOLS.values():
        schema = dict(spec.input_schema)
        defs = schema.get("$defs", {})
        reference = EcmaValidator(schema)
        for _ in range(draws):
            try:
                instance = data.draw(valid(schema, defs))
                if data.draw(st.booleans()):
                    instance = data.draw(near_miss(instance, schema, defs))
            except InvalidArgument:
                break
            try:
                made = spec.args_model.model_validate(instance)
                accepted = True
            except pydantic.ValidationError:
                accepted = False
            assert accepted == reference.is_valid(instance), (seed, spec.name, instance)
            if accepted and not _beyond_double(instance):
                assert_round_trip(spec.args_model, made, (seed, spec.name, instance))


def assert_round_trip(model: Any, made: Any, case: Any) -> Any:
    """What a client sends of a model it made (its wire form, returned) is accepted again,
    and makes the same model: the typed client's calls, a server re-validating resolved
    arguments."""
    wire = made.model_dump(mode="json", by_alias=True, exclude_unset=True)
    try:
        again = model.model_validate(wire)
    except pydantic.ValidationError as refused:
        raise AssertionError((case, wire, str(refused))) from None
    assert again == made, (case, wire)
    return wire


def _beyond_double(value: Any) -> bool:
    """Whether `value` holds an integer beyond 2**53: below a container's check a `float`
    holds its double (decision 0133's known limit), so its wire form may differ."""
    if type(value) is int:
        return abs(value) > 2**53
    if isinstance(value, dict):
        return any(map(_beyond_double, value.values()))
    if isinstance(value, list):
        return any(map(_beyond_double, value))
    return False
