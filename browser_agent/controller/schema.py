"""The LLM-facing schema: a discriminated union of the action models offered on a page, and the one
line per action that tells the model what each does."""

from __future__ import annotations

import json
import types
from collections.abc import Sequence
from functools import lru_cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, Field, TypeAdapter

from browser_agent.controller.action_types import ActionModel
from browser_agent.errors import UserError

__all__ = ["action_union", "describe_action", "parse_action"]

_TYPE_NAMES = {str: "str", int: "int", float: "number", bool: "bool", type(None): "null"}


def describe_action(model: type[ActionModel], note: str = "") -> str:
    """``name(param: type, opt: type = default): what it does.`` on one line, for the system prompt."""
    params = []
    for name, field in model.model_fields.items():
        if name == "action":
            continue
        kind = _type_name(field.annotation)
        default = "" if field.is_required() else f" = {json.dumps(field.default, default=str)}"
        params.append(f"{name}: {kind}{default}")
    name = str(get_args(model.model_fields["action"].annotation)[0])
    summary = (model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else ""
    return f"- {name}({', '.join(params)}): {summary}{note}"


def _type_name(annotation: Any) -> str:
    if annotation in _TYPE_NAMES:
        return _TYPE_NAMES[annotation]
    origin = get_origin(annotation)
    if origin is Literal:
        return "|".join(json.dumps(a) for a in get_args(annotation))
    if origin in (Union, types.UnionType):
        return " | ".join(_type_name(a) for a in get_args(annotation))
    if origin in (list, tuple, set):
        inner = get_args(annotation)
        return f"list[{_type_name(inner[0])}]" if inner else "list"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        fields = []
        for name, field in annotation.model_fields.items():
            note = f" ({field.description})" if field.description else ""
            fields.append(f"{name}: {_type_name(field.annotation)}{note}")
        return "{" + ", ".join(fields) + "}"
    return getattr(annotation, "__name__", str(annotation))


def action_union(models: Sequence[type[ActionModel]]) -> Any:
    """``Annotated[Union[...], Field(discriminator="action")]`` of ``models``.

    With one model the model itself is returned (a union of one is not a union); a validation error
    against the union names the one action that was wrong and its bad field.

    Raises:
        UserError: ``models`` is empty (every action was excluded or limited to other domains).
    """
    if not models:
        raise UserError("No action is offered on this page; do not exclude every action.")
    return _union(tuple(models))


@lru_cache(maxsize=64)
def _union(models: tuple[type[ActionModel], ...]) -> Any:
    """One object for one set of models, so that what is built from it can be cached by it (the output
    model and its tool schema cost 10 ms an agent)."""
    if len(models) == 1:
        return models[0]
    return Annotated[Union[models], Field(discriminator="action")]  # noqa: UP007 - built from a tuple


@lru_cache(maxsize=64)
def _adapter(models: tuple[type[ActionModel], ...]) -> TypeAdapter[Any]:
    return TypeAdapter(action_union(models))


def parse_action(models: Sequence[type[ActionModel]], data: dict[str, Any] | ActionModel) -> ActionModel:
    """Validate one action dict against ``models``.

    Raises:
        pydantic.ValidationError: the dict names no known action or has a bad field.
    """
    if isinstance(data, ActionModel):
        data = data.model_dump()
    parsed = _adapter(tuple(models)).validate_python(data)
    if not isinstance(parsed, ActionModel):  # pragma: no cover - the union only holds ActionModels
        raise TypeError(f"expected an ActionModel, got {type(parsed).__name__}")
    return parsed
