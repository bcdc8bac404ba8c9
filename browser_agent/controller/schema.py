"""The LLM-facing schema: a discriminated union of the action models offered on a page."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from browser_agent.controller.models import ActionModel
from browser_agent.errors import UserError

__all__ = ["action_union", "parse_action"]


def action_union(models: Sequence[type[ActionModel]]) -> Any:
    """``Annotated[Union[...], Field(discriminator="action")]`` of ``models``.

    With one model the model itself is returned (a union of one is not a union); a validation error
    against the union names the one action that was wrong and its bad field.

    Raises:
        UserError: ``models`` is empty (every action was excluded or limited to other domains).
    """
    if not models:
        raise UserError("No action is offered on this page; do not exclude every action.")
    if len(models) == 1:
        return models[0]
    return Annotated[Union[tuple(models)], Field(discriminator="action")]  # noqa: UP007 - built from a tuple


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
