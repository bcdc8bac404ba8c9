"""A task's output model: a controller whose ``done`` takes the answer in that shape.

The final result is then the answer's JSON: ``Model.model_validate_json(history.final_result())``.
"""

from __future__ import annotations

import copy
import json

from pydantic import BaseModel, ConfigDict, Field, create_model

from browser_agent.controller import ActionResult, Controller

__all__ = ["controller_with_output"]


def _done_params(output_model: type[BaseModel]) -> type[BaseModel]:
    params: type[BaseModel] = create_model(
        f"Done{output_model.__name__}",
        __config__=ConfigDict(extra="forbid"),
        data=(output_model, Field(description="The final answer, in exactly this shape.")),
        success=(bool, Field(default=True, description="True when the task was fully completed.")),
    )
    return params


def controller_with_output(base: Controller, output_model: type[BaseModel]) -> Controller:
    """A copy of ``base`` (its other actions shared) whose ``done`` takes ``data: output_model``."""
    params_model = _done_params(output_model)

    async def done(params: BaseModel) -> ActionResult:
        answer = params.model_dump(mode="json")
        return ActionResult(
            action="done",
            extracted_content=json.dumps(answer["data"]),
            is_done=True,
            success=answer["success"],
        )

    done.__annotations__ = {"params": params_model, "return": ActionResult}
    controller = copy.copy(base)
    controller.registry = base.registry.without("done")
    controller.registry.add(
        done,
        f"Finish the task: give the final answer as `data` ({output_model.__name__}); "
        "actions after it are not run.",
        param_model=params_model,
    )
    return controller
