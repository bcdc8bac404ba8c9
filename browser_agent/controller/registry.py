"""The action registry: ``@registry.action(...)`` records a function and its models, unchanged.

Each registered action gets a flat ``ActionModel`` subclass (``{"action": name, ...params}``) built
from its parameter model, so the union handed to the LLM is discriminated by ``action``. A built-in is
registered with its spec (``browser_agent.action_specs``), whose parameter model is the one used; a custom
action registered with ``export=`` or ``inputs=`` gets a spec of its own, added to the catalog the export
and the workflow maker read.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar, cast

from pydantic import BaseModel, create_model

from browser_agent.action_specs import ActionSpec, Input, InputKind, Renderer, add_spec
from browser_agent.browser.domains import matches_domain
from browser_agent.controller.action_types import ActionModel
from browser_agent.controller.placeholders import Placeholders, placeholder_uses
from browser_agent.controller.signature import Injected, ParamSpec, inspect_function
from browser_agent.errors import UserError

__all__ = ["InputRules", "RegisteredAction", "Registry"]

F = TypeVar("F", bound=Callable[..., Any])
InputRules = Mapping[str, InputKind | Input]


@dataclass(frozen=True, slots=True)
class RegisteredAction:
    """One action: its function, the models built for it, what to inject, where it is offered, and how
    the placeholders of its parameters are filled (``placeholders``; parameters not listed are ``TYPED``);
    ``spec`` is its declaration, None for a custom action registered without an export or inputs."""

    name: str
    description: str
    function: Callable[..., Any]
    param_model: type[BaseModel]
    action_model: type[ActionModel]
    injected: Mapping[str, Injected]
    domains: tuple[str, ...] | None = None
    placeholders: Mapping[str, Placeholders] = field(default_factory=dict)
    spec: ActionSpec[Any] | None = None

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
        export: Renderer[Any] | None = None,
        inputs: InputRules | None = None,
    ) -> Callable[[F], F]:
        """Register the decorated function as an action and return it unchanged.

        Args:
            description: What the action does, written for the model.
            param_model: The parameters' model; built from the signature and docstring when omitted.
            domains: URL patterns (``*.example.com``) where the action is offered; everywhere if None.
            name: The action's name; the function's name when omitted.
            override: Replace the action already registered under this name (a built-in such as
                ``done`` or ``extract_content``), in its place in the list.
            export: How the Playwright export writes a recorded call: ``export(params, script)`` returns
                the script's lines (``action_specs.Script``); without it, the export leaves the action out
                with a warning.
            inputs: The parameters whose recorded value is a workflow input, and of what kind
                (``{"city": "typed"}``, or an ``action_specs.Input``).

        Raises:
            UserError: the name is taken (without ``override``), a parameter is unannotated or cannot
                be supplied, or ``inputs`` names no parameter.
        """
        if not description or not description.strip():
            raise UserError("An action needs a description for the model: @action('What it does').")
        if isinstance(domains, str):
            raise UserError(f"domains must be a list of patterns, not the string {domains!r}.")

        def register(fn: F) -> F:
            before = self._actions.get(name or fn.__name__)
            registered = self.add(
                fn, description, param_model=param_model, domains=domains, name=name, override=override
            )
            if registered is not None and (export is not None or inputs is not None):
                try:
                    self.declare(registered.name, export=export, inputs=inputs)
                except UserError:
                    self._forget(registered.name, before)  # a mistake registers nothing
                    raise
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

    def declare(
        self,
        name: str,
        *,
        export: Renderer[Any] | None = None,
        inputs: InputRules | None = None,
        script_words: Iterable[str] = (),
    ) -> ActionSpec[Any]:
        """Give the registered action ``name`` a spec with ``export`` and ``inputs`` (see ``action``),
        added to the catalog the export and the workflow maker read: a saved run's export finds it by
        name, without this registry. ``script_words`` are the attributes and keywords ``export`` writes
        that the export does not write itself (``{"evaluate"}`` for ``page.evaluate(...)``), which the
        last check on a script then accepts.

        Raises:
            UserError: no action has that name, or ``inputs`` names no parameter of it.
        """
        registered = self.get(name)
        params = registered.param_model
        rules = _input_rules(name, inputs or {}, params)
        words = frozenset(script_words)
        if not all(word.isidentifier() for word in words):
            raise UserError(f"Action {name!r}: script_words must be Python names, not {sorted(words)!r}.")
        spec = ActionSpec(
            name, registered.description, params, export=export, inputs=rules, script_words=words
        )
        add_spec(spec)
        self._actions[name] = replace(registered, spec=spec)
        return spec

    def add_spec(self, fn: Callable[..., Any], spec: ActionSpec[Any]) -> RegisteredAction | None:
        """Register ``fn`` as the behaviour of ``spec`` (a built-in): its name, description and
        parameter model are the spec's, so the defaults the model sees are those the export writes."""
        registered = self.add(fn, spec.description, param_model=spec.params, name=spec.name)
        if registered is None:
            return None
        registered = replace(registered, spec=spec)
        self._actions[spec.name] = registered
        return registered

    def _forget(self, name: str, before: RegisteredAction | None) -> None:
        """Put back what ``name`` was before a registration that failed half-way."""
        if before is None:
            self._actions.pop(name, None)
        else:
            self._actions[name] = before

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


def _input_rules(name: str, rules: InputRules, params: type[BaseModel]) -> dict[str, Input]:
    """``rules`` as ``Input``s; a kind alone (``"typed"``) is an ``Input`` of that kind.

    Raises:
        UserError: a rule names no parameter of the action, or a kind there is not.
    """
    made: dict[str, Input] = {}
    kinds = ("typed", "selected", "url", "query")
    for param, rule in rules.items():
        if param not in params.model_fields:
            known = ", ".join(params.model_fields) or "none"
            raise UserError(f"Action {name!r}: inputs names {param!r}, not one of its parameters ({known}).")
        kind = rule.kind if isinstance(rule, Input) else rule
        if kind not in kinds:
            raise UserError(f"Action {name!r}: input {param!r} is of kind {kind!r}; use one of {kinds}.")
        made[param] = rule if isinstance(rule, Input) else Input(rule)
    return made


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
