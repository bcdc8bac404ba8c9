"""A parameter model built from a function's signature and its Google-style ``Args:`` docstring.

Parameters whose type the run supplies (``ActionContext``, ``BrowserSession``, ``Page``,
``BaseChatModel``) are injected and left out of the model; every other parameter must be annotated
with a type pydantic can validate, and becomes a field whose description comes from the docstring.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from playwright.async_api import Page
from pydantic import BaseModel, ConfigDict, Field, PydanticSchemaGenerationError, TypeAdapter, create_model

from browser_agent.browser import BrowserSession
from browser_agent.controller.context import ActionContext
from browser_agent.errors import UserError

__all__ = ["Injected", "ParamSpec", "docstring_args", "inspect_function"]

Injected = Literal["context", "session", "page", "llm", "optional_llm", "params"]
_INJECTABLE: tuple[tuple[type[Any], Injected], ...] = (
    (ActionContext, "context"),
    (BrowserSession, "session"),
    (Page, "page"),
    (BaseChatModel, "llm"),
)
_ARG_LINE = re.compile(r"^\s{2,}(\*{0,2}\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")


class ParamSpec(typing.NamedTuple):
    """What ``inspect_function`` learned: the model's fields and what to inject where."""

    param_model: type[BaseModel]
    injected: Mapping[str, Injected]


def docstring_args(doc: str | None) -> dict[str, str]:
    """Descriptions of the ``Args:`` section of a Google-style docstring, by parameter name."""
    found: dict[str, str] = {}
    in_args, current = False, ""
    for line in inspect.cleandoc(doc or "").splitlines():
        stripped = line.strip()
        if stripped in ("Args:", "Arguments:", "Parameters:"):
            in_args = True
            continue
        if in_args and stripped and not line.startswith(" "):
            break  # the next section (Returns:, Raises:) starts at the left margin
        match = _ARG_LINE.match(line) if in_args else None
        if match and len(line) - len(line.lstrip()) <= 4:
            current = match.group(1).lstrip("*")
            found[current] = match.group(2).strip()
        elif in_args and current and stripped:
            found[current] = f"{found[current]} {stripped}".strip()
    return found


def _injected_kind(annotation: Any) -> Injected | None:
    if typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    optional = False
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        members = [a for a in typing.get_args(annotation) if a is not type(None)]
        optional = len(members) < len(typing.get_args(annotation))
        if len(members) != 1:
            return None
        annotation = members[0]
    if not isinstance(annotation, type):
        return None
    for cls, kind in _INJECTABLE:
        if issubclass(annotation, cls):
            return "optional_llm" if kind == "llm" and optional else kind
    return None


def inspect_function(name: str, fn: Callable[..., Any], param_model: type[BaseModel] | None) -> ParamSpec:
    """Split ``fn``'s parameters into model fields and injected values.

    Raises:
        UserError: a parameter is unannotated, of a type nothing can supply, or missing from
            ``param_model``; or ``fn`` takes ``*args``/``**kwargs``.
    """
    try:
        hints = typing.get_type_hints(fn, include_extras=True)  # keeps Annotated marks (Placeholders)
    except (NameError, TypeError) as exc:
        raise UserError(
            f"Action {name!r}: cannot resolve the type hints of {fn.__qualname__}: {exc}. "
            "Import the annotated types at module level."
        ) from exc
    injected: dict[str, Injected] = {}
    fields: dict[str, Any] = {}
    docs = docstring_args(fn.__doc__)
    for param in inspect.signature(fn).parameters.values():
        where = f"Action {name!r}: parameter {param.name!r} of {fn.__qualname__}"
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise UserError(f"{where} is *args/**kwargs; declare each parameter with its type.")
        if param.name not in hints:
            raise UserError(f"{where} has no type annotation; annotate it (e.g. `{param.name}: str`).")
        hint = hints[param.name]
        kind = _injected_kind(hint)
        if kind is None and param_model is not None and hint is param_model:
            kind = "params"
        if kind is not None:
            injected[param.name] = kind
            continue
        if param.name == "action":
            raise UserError(f"{where}: the name 'action' is reserved for the action's name; rename it.")
        fields[param.name] = (hint, _field(where, hint, param, docs.get(param.name)))
    return ParamSpec(_check_or_build(name, fn, param_model, fields, injected), injected)


def _field(where: str, hint: Any, param: inspect.Parameter, doc: str | None) -> Any:
    try:
        TypeAdapter(hint)
    except (PydanticSchemaGenerationError, TypeError) as exc:
        raise UserError(
            f"{where} has type {hint!r}, which the action context cannot supply and the model cannot write. "
            "Inject ActionContext, BrowserSession, Page or BaseChatModel, or use a JSON-friendly type "
            "(str, int, float, bool, Literal, Enum, a pydantic model, lists of these)."
        ) from exc
    default = ... if param.default is inspect.Parameter.empty else param.default
    return Field(default, description=doc) if doc else Field(default)


def _check_or_build(
    name: str,
    fn: Callable[..., Any],
    param_model: type[BaseModel] | None,
    fields: dict[str, Any],
    injected: Mapping[str, Injected],
) -> type[BaseModel]:
    if param_model is None:
        config = ConfigDict(extra="forbid")
        model: type[BaseModel] = create_model(f"{_camel(name)}Params", __config__=config, **fields)
        return model
    if "action" in param_model.model_fields:
        raise UserError(
            f"Action {name!r}: {param_model.__name__} has a field named 'action', which is "
            "reserved for the action's name; rename it."
        )
    if "params" in injected.values():
        if fields:
            raise UserError(
                f"Action {name!r}: {fn.__qualname__} takes {param_model.__name__} and also "
                f"{sorted(fields)}; put those fields in {param_model.__name__}."
            )
        return param_model
    missing = sorted(set(fields) - set(param_model.model_fields))
    unused = sorted(set(param_model.model_fields) - set(fields))
    if unused:
        raise UserError(
            f"Action {name!r}: fields {unused} of {param_model.__name__} are not parameters of "
            f"{fn.__qualname__}; add them, or take `params: {param_model.__name__}` instead."
        )
    if missing:
        raise UserError(
            f"Action {name!r}: parameters {missing} of {fn.__qualname__} are not fields of "
            f"{param_model.__name__}; add them to the model or take `params: "
            f"{param_model.__name__}` instead."
        )
    return param_model


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_")) or "Action"
