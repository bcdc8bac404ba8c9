"""``done``: end the task with the answer; as text, or as the caller's own pydantic model."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field, create_model

from browser_agent.action_specs import done as specs
from browser_agent.controller.action_types import ActionResult
from browser_agent.controller.placeholders import Placeholders
from browser_agent.controller.registry import Registry

__all__ = ["done", "register", "register_structured_done"]


async def done(text: str, success: bool) -> ActionResult:
    """Finish the task."""
    return ActionResult(action="done", extracted_content=text, is_done=True, success=success)


def register(registry: Registry) -> None:
    registry.add_spec(done, specs.DONE)


def register_structured_done(registry: Registry, output_model: type[BaseModel]) -> None:
    """Replace ``done`` by one whose answer is an ``output_model``, validated like every action.

    A reply whose ``data`` does not validate goes back to the model with the validation errors; the
    answer is recorded as the model's JSON in ``extracted_content``.
    """
    params: type[BaseModel] = create_model(
        "DoneParams",
        data=(
            Annotated[output_model, Placeholders.KEPT],  # type: ignore[arg-type]
            Field(description="The final answer, in the requested structure."),
        ),
        success=(bool, Field(description=specs.DoneParams.model_fields["success"].description)),
    )

    async def structured_done(answer: Any) -> ActionResult:
        data: BaseModel = answer.data
        return ActionResult(
            action="done", extracted_content=data.model_dump_json(), is_done=True, success=answer.success
        )

    structured_done.__annotations__ = {"answer": params, "return": ActionResult}
    registry.add(
        structured_done,
        specs.DONE.description + f" Give the answer as `data`, a {output_model.__name__} object.",
        param_model=params,
        name="done",
        override=True,
    )
