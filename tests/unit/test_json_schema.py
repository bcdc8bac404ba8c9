"""JSON schema → pydantic model, as extract_content uses it to validate the extraction model's answer."""

from __future__ import annotations

from enum import StrEnum

import pytest
from pydantic import BaseModel, ValidationError

from browser_agent.controller.json_schema import model_from_schema
from browser_agent.errors import ActionError


class Colour(StrEnum):
    blue = "blue"
    red = "red"


class Mug(BaseModel):
    name: str
    colour: Colour
    price: float | None = None


class Shelf(BaseModel):
    mugs: list[Mug]
    count: int


def test_a_pydantic_schema_with_defs_enum_and_optional_round_trips() -> None:
    model = model_from_schema(Shelf.model_json_schema())
    data = {
        "mugs": [{"name": "Blue mug", "colour": "blue", "price": 12.5}, {"name": "Red", "colour": "red"}],
        "count": 2,
    }
    assert model.model_validate(data).model_dump(exclude_none=True) == Shelf.model_validate(data).model_dump(
        exclude_none=True, mode="json"
    )
    with pytest.raises(ValidationError, match="colour"):
        model.model_validate({"mugs": [{"name": "x", "colour": "green"}], "count": 1})
    with pytest.raises(ValidationError, match="count"):
        model.model_validate({"mugs": []})


def test_a_schema_that_is_not_an_object_is_wrapped_as_value() -> None:
    model = model_from_schema({"type": "array", "items": {"type": "number"}})
    assert model.model_validate({"value": [1, 2.5]}).model_dump() == {"value": [1, 2.5]}


@pytest.mark.parametrize(
    ("schema", "needle"),
    [
        ({"type": "tuple"}, "tuple"),
        ({"type": "object", "properties": {"a": {"$ref": "https://x/schema"}}}, "$ref"),
        ("not a schema", "JSON schema object"),
    ],
)
def test_unreadable_schemas_are_errors_for_the_model(schema: object, needle: str) -> None:
    with pytest.raises(ActionError, match=needle.replace("$", r"\$")):
        model_from_schema(schema)  # type: ignore[arg-type]
