"""A package's args models judge instances as the published inputSchema does (the reference
validator): instances drawn from each tool's schema, half of them near misses. Shared by the
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
                spec.args_model.model_validate(instance)
                accepted = True
            except pydantic.ValidationError:
                accepted = False
            assert accepted == reference.is_valid(instance), (seed, spec.name, instance)
