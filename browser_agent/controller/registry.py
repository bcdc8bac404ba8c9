"""The action registry: ``@registry.action(...)`` records a function and its models, unchanged.

Each registered action gets a flat ``ActionModel`` subclass (``{"action": name, ...params}``) built
from its parameter model, so the union handed to the LLM is discriminated by ``action``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar, cast

from pydantic import BaseModel, create_model

from browser_agent.browser.domains import matches_domain
from browser_agent.controller.action_types import ActionModel
from browser_agent.controller.placeholders import Placeholders, placeholder_uses
from browser_agent.controller.signature import Injected, ParamSpec, inspect_function
from browser_agent.errors import UserError

__all__ = ["RegisteredAction", "Registry"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class RegisteredAction:
    """One action: its function, the models built for it, what to inject, where it is offered, and how
    the placeholders of its parameters are filled (``placeholders``; parameters not listed are ``TYPED``)."""

    name: str
    description: str
    function: Callable[..., Any]
    param_model: type[BaseModel]
    action_model: type[ActionModel]
    injected: Mapping[str, Injected]
    domains: tuple[str, ...] | None = None
    placeholders: Mapping[str, Placeholders] = field(default_factory=dict)

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.function)

    def offered_on(self, url: str | None) -> bool:
        """Whether the action is offered on ``url`` (every action is, when the URL is unknown)."""
        if self.domains is None or url is None:
            return self.domains is None
        return any(matches_domain(url, pattern) for pattern in self.domains)


class Registry:
    """The actions a controller knows, in registration order."""

    def __init__(self, *, exclude: Iterable[str] = ()) -> None:
        self.exclude = frozenset(exclude)
        self._actions: dict[str, RegisteredAction] = {}

    def action(
        self,
        description: str,
        param_model: type[BaseModel] | None = None,
        domains: Sequence[str] | None = None,
        *,
        name: str | None = None,
        override: bool = False,
    ) -> Callable[[F], F]:
        """Register the decorated function as an action and return it unchanged.

        Args:
            description: What the action does, written for the model.
            param_model: The parameters' model; built from the signature and docstring when omitted.
            domains: URL patterns (``*.example.com``) where the action is offered; everywhere if None.
            name: The action's name; the function's name when omitted.
            override: Replace the action already registered under this name (a built-in such as
                ``done`` or ``extract_content``), in its place in the list.

        Raises:
            UserError: the name is taken (without ``override``), or a parameter is unannotated or
                cannot be supplied.
        """
        if not description or not description.strip():
            raise UserError("An action needs a description for the model: @action('What it does').")
        if isinstance(domains, str):
            raise UserError(f"domains must be a list of patterns, not the string {domains!r}.")

        def register(fn: F) -> F:
            self.add(fn, description, param_model=param_model, domains=domains, name=name, override=override)
            return fn

        return register

    def add(
        self,
        fn: Callable[..., Any],
        description: str,
        *,
        param_model: type[BaseModel] | None = None,
        domains: Sequence[str] | None = None,
        name: str | None = None,
        override: bool = False,
    ) -> RegisteredAction | None:
        """Register ``fn`` (what the decorator does); returns None when its name is excluded."""
        action_name = name or fn.__name__
        if not action_name.isidentifier():
            raise UserError(f"Action name {action_name!r} is not an identifier; use letters, digits and _.")
        if action_name in self._actions and not override:
            raise UserError(
                f"An action named {action_name!r} is already registered; pick another name, or "
                f"replace it with @controller.action(..., override=True)."
            )
        built = _models(action_name, description.strip(), fn, param_model)
        if action_name in self.exclude and not override:
            return None
        registered = RegisteredAction(
            name=action_name,
            description=description.strip(),
            function=fn,
            param_model=built.spec.param_model,
            action_model=built.action_model,
            injected=built.spec.injected,
            domains=tuple(domains) if domains is not None else None,
            placeholders=built.placeholders,
        )
        self._actions[action_name] = registered
        return registered

    def copy(self) -> Registry:
        """A registry with the same actions, to change without touching this one."""
        twin = Registry(exclude=self.exclude)
        twin._actions = dict(self._actions)
        return twin

    def without(self, names: Iterable[str]) -> Registry:
        """A copy with the actions ``names`` left out (and kept out if registered again)."""
        twin = Registry(exclude=self.exclude | frozenset(names))
        twin._actions = {n: a for n, a in self._actions.items() if n not in twin.exclude}
        return twin

    def get(self, name: str) -> RegisteredAction:
        try:
            return self._actions[name]
        except KeyError:
            known = ", ".join(self._actions)
            raise UserError(f"No action named {name!r}; registered actions: {known}.") from None

    def actions(self, url: str | None = None, *, every: bool = False) -> list[RegisteredAction]:
        """The actions offered on ``url``; with ``every``, all of them regardless of domain."""
        return [a for a in self._actions.values() if every or a.offered_on(url)]

    def __contains__(self, name: object) -> bool:
        return name in self._actions

    def __len__(self) -> int:
        return len(self._actions)


@dataclass(frozen=True, slots=True)
class _Built:
    spec: ParamSpec
    action_model: type[ActionModel]
    placeholders: Mapping[str, Placeholders]


# The models built for a function, shared by every registry that adds it again: a Controller registers
# the same two dozen built-ins, and building their pydantic models took about 10 ms a Controller (70 ms
# the first time in a process). Keyed by what the models are made of; a function whose key cannot be
# hashed (a list as a default value) is built each time.
_BUILT: dict[Hashable, _Built] = {}
_MAX_BUILT = 1_024


def _models(
    name: str, description: str, fn: Callable[..., Any], param_model: type[BaseModel] | None
) -> _Built:
    key = _key(name, description, fn, param_model)
    if key is not None and key in _BUILT:
        return _BUILT[key]
    spec = inspect_function(name, fn, param_model)
    action_model = _action_model(name, description, spec.param_model)
    built = _Built(spec, action_model, placeholder_uses(spec.param_model))
    if key is not None:
        if len(_BUILT) >= _MAX_BUILT:
            _BUILT.clear()
        _BUILT[key] = built
    return built


def _key(
    name: str, description: str, fn: Callable[..., Any], param_model: type[BaseModel] | None
) -> Hashable | None:
    """Everything the models of ``fn`` depend on: its code, signature defaults, annotations, docstring
    and module; None for a callable that is not a plain function, or a key that cannot be hashed."""
    if not inspect.isfunction(fn):
        return None
    key = (
        name,
        description,
        param_model,
        fn.__code__,
        fn.__module__,
        fn.__doc__,
        fn.__defaults__,
        tuple(sorted((fn.__kwdefaults__ or {}).items())),
        tuple(fn.__annotations__.items()),
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _action_model(name: str, description: str, params: type[BaseModel]) -> type[ActionModel]:
    fields: dict[str, Any] = {n: (f.annotation, f) for n, f in params.model_fields.items()}
    model: type[ActionModel] = create_model(
        "".join(p.capitalize() for p in name.split("_")) + "Action",
        __base__=ActionModel,
        __doc__=description,
        action=(cast(Any, Literal)[name], ...),
        **fields,
    )
    return model
