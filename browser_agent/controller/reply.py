"""What the model answers each step: its state (``AgentBrain``) and the actions, validated by an output
model built from the actions offered on the page (``build_output_model``)."""

from __future__ import annotations

import ast
import functools
import re
from typing import Annotated, Any, ClassVar, get_args, get_origin

from pydantic import BaseModel, Field, create_model, field_validator

from browser_agent.llm import flat_union, inline_refs, strip_noise
from browser_agent.record import AgentBrain

__all__ = ["AgentOutput", "build_output_model", "tool_parameters"]


class AgentOutput(BaseModel):
    """Base of the per-page output model; ``build_output_model`` gives ``action`` its real type."""

    current_state: AgentBrain
    action: list[Any]

    # action name -> the fields it takes; set by build_output_model
    action_fields: ClassVar[dict[str, frozenset[str]]] = {}
    # every field some action takes: the union of ``action_fields``, set with it
    known_fields: ClassVar[frozenset[str]] = frozenset()
    # action name -> the fields it cannot do without
    required_fields: ClassVar[dict[str, frozenset[str]]] = {}

    @field_validator("action", mode="before")
    @classmethod
    def _drop_foreign_fields(cls, value: Any) -> Any:
        """Keep, of each action, the fields that action takes and that are not ``null``.

        Models fill fields of other actions: with one flat tool for every action they send nulls, and
        small models add a neighbour's field (``go_to_url`` with an ``index``). Dropping them invents
        nothing. A field no action takes (a misspelling) stays, so the model is told its name, and a
        missing or mistyped field of the action itself is still an error for the model, with one
        exception: when the action lacks exactly one field it needs and holds exactly one field no action
        takes, that value is the missing field's (small models copy the reply example's ``"<parameter>"``
        key: ``{"action": "click_element", "parameter": 3}``); it is still validated as that field. An
        action written as a call, ``{"action": "click_element(index=1)"}`` (the memo of past steps writes
        actions so), is read as that action with those arguments when every argument is a literal.
        """
        if not isinstance(value, list):
            return value
        return [_own_fields(item, cls.action_fields, cls.known_fields, cls.required_fields) for item in value]


def _own_fields(
    item: Any,
    action_fields: dict[str, frozenset[str]],
    known: frozenset[str],
    required: dict[str, frozenset[str]],
) -> Any:
    if not isinstance(item, dict):
        return item
    name = str(item.get("action"))
    taken = action_fields.get(name)
    if taken is None and (call := _call_text(name, action_fields)) is not None:
        name, arguments = call
        item = {**arguments, **{k: v for k, v in item.items() if v is not None}, "action": name}
        taken = action_fields[name]
    if taken is None:
        return {k: v for k, v in item.items() if v is not None}
    own = taken | {"action"}
    kept = {k: v for k, v in item.items() if v is not None and (k in own or k not in known)}
    foreign = [k for k in kept if k not in own]
    missing = required.get(name, frozenset()) - kept.keys()
    if len(foreign) == 1 and len(missing) == 1:
        kept[next(iter(missing))] = kept.pop(foreign[0])
    return kept


_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\((.*)\)\s*", re.DOTALL)
_MAX_CALL_CHARS = 4_000


def _call_text(text: str, action_fields: dict[str, frozenset[str]]) -> tuple[str, dict[str, Any]] | None:
    """``"click_element(index=1)"`` as the action's name: the action and its arguments, when the name is an
    action's and every argument a keyword with a literal value (small models copy the call as the memo of
    past steps writes it); None for anything else, which stays an error for the model."""
    match = _CALL.fullmatch(text) if len(text) <= _MAX_CALL_CHARS else None
    if match is None or match.group(1) not in action_fields:
        return None
    try:
        call = ast.parse(f"f({match.group(2)})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            return None
        arguments = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None}
    except (SyntaxError, ValueError, TypeError, RecursionError, MemoryError):
        return None
    if len(arguments) != len(call.keywords):
        return None
    return match.group(1), arguments


@functools.lru_cache(maxsize=64)
def tool_parameters(output_model: type[AgentOutput]) -> dict[str, Any]:
    """The forced tool's parameters for ``output_model``: structure only (the system prompt describes each
    action once), and the action union flattened to one object (a fifth of its size). Replies are still
    validated by the model itself, and its errors go back to the model."""
    schema = strip_noise(inline_refs(output_model.model_json_schema()), descriptions=False)
    action = schema["properties"]["action"]
    action["items"] = flat_union(action["items"])
    return schema


@functools.lru_cache(maxsize=64)
def build_output_model(action_union: Any, max_actions: int) -> type[AgentOutput]:
    """The output model for one step: the brain plus 1..max_actions actions from ``action_union``; one
    class for one union (``Controller.action_union`` gives the same object for the same actions), shared
    by the agents that offer them, and never changed once built."""
    model: type[AgentOutput] = create_model(
        "AgentOutput",
        __base__=AgentOutput,
        __doc__="Your state and the next actions, run in order.",
        action=(
            list[action_union],
            Field(min_length=1, max_length=max_actions, description="Actions to run in order."),
        ),
    )
    model.action_fields = {
        str(get_args(m.model_fields["action"].annotation)[0]): frozenset(m.model_fields) - {"action"}
        for m in _union_members(action_union)
    }
    model.known_fields = frozenset().union(*model.action_fields.values())
    model.required_fields = {
        str(get_args(m.model_fields["action"].annotation)[0]): frozenset(
            name for name, field in m.model_fields.items() if name != "action" and field.is_required()
        )
        for m in _union_members(action_union)
    }
    return model


def _union_members(action_union: Any) -> list[type[BaseModel]]:
    """The action models of ``Annotated[Union[...], ...]``, or the one model given alone."""
    if isinstance(action_union, type):
        return [action_union]
    union = get_args(action_union)[0] if get_origin(action_union) is Annotated else action_union
    return [m for m in get_args(union) if isinstance(m, type) and issubclass(m, BaseModel)]
