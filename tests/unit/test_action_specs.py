"""Each built-in action is declared once (``browser_agent.action_specs``): the controller runs it with the
spec's parameter model and the export writes it with the spec's defaults, so the two cannot drift apart;
a custom action gives its own export and inputs through the same decorator."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from pydantic import BaseModel

from browser_agent.action_specs import BUILTIN_SPECS, Input, Script, spec_of
from browser_agent.action_specs.navigation import GO_TO_URL, WAIT
from browser_agent.action_specs.scrolling import SCROLL
from browser_agent.controller import ActionContext, Controller, Placeholders
from browser_agent.errors import UserError
from browser_agent.export import ExportStep, render_script
from browser_agent.export.params import KNOWN_ACTIONS, checked_step
from browser_agent.record import ActionCall, AgentHistory, AgentStep, RecordedResult, StepOutput
from browser_agent.reid import Fingerprint
from browser_agent.workflow import make_workflow

NOT_OFFERED = {"page_markdown"}  # exported from old histories; no controller offers it any more


def test_every_builtin_runs_with_its_spec_s_model_and_has_no_default_of_its_own() -> None:
    """One object holds each default: the registered model is the spec's, and the behaviour's function
    declares no default that could differ from it."""
    registered = {a.name: a for a in Controller().registry.actions(every=True)}
    assert set(registered) == set(BUILTIN_SPECS) - NOT_OFFERED
    for name, action in registered.items():
        spec = BUILTIN_SPECS[name]
        assert action.spec is spec and action.param_model is spec.params, name
        assert action.description == spec.description, name
        own = [
            p.name for p in inspect.signature(action.function).parameters.values() if p.default is not p.empty
        ]
        assert own == [], f"{name}: the function repeats the defaults of {own}; they belong to its spec"


def _required(spec_name: str) -> dict[str, Any]:
    """A value of the right type for each parameter of the action that has no default."""
    samples = {str: "x", int: 1, bool: True}
    fields = BUILTIN_SPECS[spec_name].params.model_fields
    return {n: samples.get(f.annotation, "x") for n, f in fields.items() if f.is_required()}


@pytest.mark.parametrize("name", sorted(BUILTIN_SPECS))
def test_the_export_fills_in_the_defaults_the_controller_runs_with(name: str) -> None:
    registry = Controller().registry
    spec = BUILTIN_SPECS[name]
    element = Fingerprint(tag="input", name="field")
    checked = checked_step(ExportStep(name, _required(name), fingerprint=element), "step 1").params
    for param in checked:
        info = spec.params.model_fields[param]
        if info.is_required():
            continue
        assert checked[param] == spec.default(param), (name, param)
        if name in registry:  # the model the controller validates the model's reply with
            assert registry.get(name).param_model.model_fields[param].default == checked[param], (name, param)


def test_the_export_knows_the_builtins_only_and_the_defaults_come_from_the_spec() -> None:
    assert frozenset(BUILTIN_SPECS) == KNOWN_ACTIONS
    assert checked_step(ExportStep("wait"), "step 1").params == {"seconds": WAIT.default("seconds")}
    assert checked_step(ExportStep("scroll"), "step 1").params == {
        "direction": "down",
        "pages": 1.0,
        "index": None,
    }


def test_params_are_read_typed_and_an_older_history_s_extra_parameter_is_left_out() -> None:
    call = ActionCall.model_validate({"action": "scroll", "direction": "up", "speed": "fast"})
    params = SCROLL.params_of(call)
    assert (params.direction, params.pages, params.index) == ("up", 1.0, None)
    assert GO_TO_URL.params_of({"url": "http://127.0.0.1/"}).reload is False
    assert ActionCall(name="click_element", params={"index": 4}).element_index() == 4
    assert ActionCall(name="click_element", params={"index": True}).element_index() is None


def test_the_placeholder_marks_live_with_the_spec() -> None:
    search = Controller().registry.get("search_web")
    assert search.placeholders == {"query": Placeholders.KEPT}
    assert spec_of("search_web") is search.spec


def _history(*calls: dict[str, Any], element: Fingerprint | None = None) -> AgentHistory:
    steps = [
        AgentStep(
            step=n,
            url="http://127.0.0.1:9/",
            model_output=StepOutput(action=[ActionCall.model_validate(call)]),
            results=[RecordedResult(action=call["action"])],
            interacted=[element if "index" in call else None],
        )
        for n, call in enumerate(calls, start=1)
    ]
    return AgentHistory(task="plan a trip", steps=steps)


def _fill_city(params: BaseModel, script: Script) -> list[str]:
    return script.on_element(f"fill({script.value('city', 'destination')})")


def test_a_custom_action_s_export_and_inputs_are_used_and_an_undeclared_one_is_left_out() -> None:
    controller = Controller()

    @controller.action("Pick the trip's city", export=_fill_city, inputs={"city": "typed"})
    async def pick_trip_city(index: int, city: str, ctx: ActionContext) -> str:
        return city

    @controller.action("Rate the trip")
    async def rate_trip_unit(stars: int) -> str:
        return str(stars)

    field = Fingerprint(tag="input", name="where to")
    history = _history(
        {"action": "go_to_url", "url": "http://127.0.0.1:9/"},
        {"action": "pick_trip_city", "index": 3, "city": "Lisbon"},
        {"action": "rate_trip_unit", "stars": 5},
        element=field,
    )
    script = render_script(
        [ExportStep(c.name, c.params, fingerprint=field) for s in history.steps for c in s.actions]
    )
    assert 'page.get_by_role("textbox", name=re.compile("^where to$", re.IGNORECASE)).fill(destination)' in (
        script.source
    )
    assert 'DESTINATION = os.environ.get("BA_DESTINATION", "Lisbon")' in script.source
    assert any("'rate_trip_unit'" in w and "not a built-in action" in w for w in script.warnings)
    workflow = make_workflow(history)
    step = next(s for s in workflow.steps if s.action == "pick_trip_city")
    assert step.inputs == {"city": "where_to"}
    assert workflow.input("where_to").source == "typed" and workflow.input("where_to").default == "Lisbon"
    assert not next(s for s in workflow.steps if s.action == "rate_trip_unit").inputs


def test_a_custom_export_with_a_call_the_export_does_not_write_needs_it_declared() -> None:
    controller = Controller()

    def evaluate(params: BaseModel, script: Script) -> list[str]:
        return [f"page.evaluate({script.literal('window.scrollTo(0, 0)')})"]

    @controller.action("Scroll to the top of the page", export=evaluate)
    async def back_to_top_unit() -> str:
        return "ok"

    steps = [ExportStep("go_to_url", {"url": "http://127.0.0.1:9/"}), ExportStep("back_to_top_unit")]
    with pytest.raises(UserError, match="the attribute 'evaluate'"):
        render_script(steps)
    controller.registry.declare("back_to_top_unit", export=evaluate, script_words=["evaluate"])
    assert 'page.evaluate("window.scrollTo(0, 0)")' in render_script(steps).source


def test_inputs_naming_no_parameter_is_refused_and_registers_nothing() -> None:
    controller = Controller()
    with pytest.raises(UserError, match="inputs names 'town', not one of its parameters"):

        @controller.action("Pick a city", inputs={"town": "typed"})
        async def pick_city_unit(city: str) -> str:
            return city

    assert "pick_city_unit" not in controller.registry and spec_of("pick_city_unit") is None

    def pick_town_unit(city: str) -> str:
        return city

    with pytest.raises(UserError, match="of kind 'password'"):
        controller.action("Pick a city", inputs={"city": "password"})(pick_town_unit)  # type: ignore[dict-item]
    assert "pick_town_unit" not in controller.registry


def test_inputs_can_name_and_describe_the_input() -> None:
    controller = Controller()
    rule = Input("url", name="portal", description="the partner portal opened")

    @controller.action("Open the partner portal", inputs={"address": rule})
    async def open_portal_unit(address: str) -> str:
        return address

    history = _history({"action": "open_portal_unit", "address": "http://127.0.0.1:9/portal"})
    made = make_workflow(history).input("portal")
    assert (made.source, made.description) == ("url", "the partner portal opened")
