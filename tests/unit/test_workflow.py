"""Workflows without a browser: inputs found and named, the file format checked, values given by name, an
element chosen by its words re-targeted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from browser_agent import UserError, Workflow, make_workflow
from browser_agent.controller import ActionResult
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.record import ActionCall, AgentHistory, AgentStep, StepOutput
from browser_agent.reid import Fingerprint
from browser_agent.workflow import retarget, workflow_history
from browser_agent.workflow.naming import field_input_name, identifier


def _step(
    number: int, action: dict[str, Any], target: Fingerprint | None = None, error: str | None = None
) -> AgentStep:
    call = ActionCall.model_validate(action)
    return AgentStep(
        step=number,
        url=f"http://127.0.0.1:9/page{number}",
        model_output=StepOutput(action=[call]),
        results=[
            ActionResult(
                action=call.name,
                error=error,
                is_done=call.name == "done",
                extracted_content=action.get("text"),
            )
        ],
        interacted=[target],
    )


def _field(label: str, **attributes: str) -> Fingerprint:
    return Fingerprint(tag="input", name=label, attributes=tuple(attributes.items()))


def test_the_recorded_purchase_gets_named_inputs_and_a_task_with_their_names() -> None:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    found = {item.name: (item.default, item.source) for item in workflow.inputs}
    assert found == {
        "url": ("http://127.0.0.1:45531/", "url"),
        "product": ("Blue ceramic mug", "element"),
        "quantity": ("2", "typed"),
        "full_name": ("Ada Lovelace", "typed"),
        "email": ("ada@example.com", "typed"),
        "shipping": ("Express", "selected"),
    }
    assert workflow.task == (
        "In the demo shop, buy {quantity} '{product}' with {shipping} shipping for {full_name} ({email}), "
        "then report the order confirmation."
    )
    assert [s.action for s in workflow.steps][:3] == ["go_to_url", "click_element", "input_text"]
    assert "done" not in [s.action for s in workflow.steps], "what the run reported is not a step"
    assert workflow.recorded_result is not None and workflow.recorded_result.startswith("Order #")
    click = workflow.steps[1]
    assert (
        click.target_input == "product"
        and click.target is not None
        and click.target.name == "blue ceramic mug"
    )
    assert workflow.steps[7].inputs == {"text": "email"}


def test_a_workflow_saved_loads_back_the_same(tmp_path: Path) -> None:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    path = workflow.save(tmp_path / "shop.workflow.json")
    data = json.loads(path.read_text())
    assert data["format"] == "browser-agent-workflow" and data["version"] == 1
    assert Workflow.load(path) == workflow


def test_secrets_stay_placeholders_and_failed_actions_are_left_out() -> None:
    history = AgentHistory(
        task="Log in as 'ada' and search for 'oak board'",
        steps=[
            _step(1, {"action": "input_text", "index": 1, "text": "ada"}, _field("user name")),
            _step(2, {"action": "input_text", "index": 2, "text": "<secret>pw</secret>"}, _field("password")),
            _step(
                3, {"action": "click_element", "index": 9}, Fingerprint(tag="button", name="nowhere"), "gone"
            ),
            _step(4, {"action": "input_text", "index": 3, "text": "oak board"}, _field("", type="search")),
            _step(5, {"action": "click_element", "index": 4}, Fingerprint(tag="a", name="oak board (24.90)")),
            _step(6, {"action": "done", "text": "found it", "success": True}),
        ],
    )
    workflow = make_workflow(history)
    assert [(i.name, i.default) for i in workflow.inputs] == [("user_name", "ada"), ("query", "oak board")]
    assert workflow.secrets == ["pw"]
    assert workflow.steps[1].params["text"] == "<secret>pw</secret>" and workflow.steps[1].inputs == {}
    assert [s.action for s in workflow.steps] == ["input_text", "input_text", "input_text", "click_element"]
    assert workflow.steps[3].target_input == "query", "the result clicked is the one the search named"
    assert workflow.task == "Log in as '{user_name}' and search for '{query}'"
    assert workflow.recorded_result == "found it"


@pytest.mark.parametrize(
    ("field", "value", "name"),
    [
        (_field("Your email"), "grace@example.org", "email"),
        (_field("Contact", name="contact"), "a.b@c.example", "email"),
        (_field("Find products", name="q"), "kettle", "query"),
        (_field("Full name"), "Ada", "full_name"),
        (_field("", placeholder="Delivery address, line one"), "Main St", "delivery_address_line"),
        (
            Fingerprint(tag="select", name="shipping standardexpress", attributes=(("name", "ship"),)),
            "x",
            "ship",
        ),
        (_field("2nd line"), "x", "text_2nd_line"),
        (None, "x", "text"),
    ],
)
def test_an_input_is_named_for_what_it_holds_or_the_field_it_goes_into(
    field: Fingerprint | None, value: str, name: str
) -> None:
    assert field_input_name(field, value) == name
    assert identifier(name) == name


def test_the_same_value_in_two_fields_of_the_same_name_is_one_input_and_others_are_numbered() -> None:
    history = AgentHistory(
        task="",
        steps=[
            _step(1, {"action": "input_text", "index": 1, "text": "a@b.example"}, _field("Email")),
            _step(2, {"action": "input_text", "index": 2, "text": "a@b.example"}, _field("Confirm email")),
            _step(3, {"action": "input_text", "index": 3, "text": "c@d.example"}, _field("Friend's email")),
        ],
    )
    workflow = make_workflow(history)
    assert [(i.name, i.default) for i in workflow.inputs] == [
        ("email", "a@b.example"),
        ("email_2", "c@d.example"),
    ]
    assert [s.inputs for s in workflow.steps] == [{"text": "email"}, {"text": "email"}, {"text": "email_2"}]


def test_values_are_given_by_name_and_an_unknown_name_lists_the_known_ones() -> None:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    values = workflow.values({"email": "grace@example.org", "product": "Red kettle"})
    assert values["email"] == "grace@example.org" and values["quantity"] == "2"
    with pytest.raises(UserError, match=r"no input 'colour'; its inputs are: url, product, quantity"):
        workflow.values({"colour": "red"})
    history = workflow_history(workflow, values)
    assert history.task.startswith("In the demo shop, buy 2 'Red kettle' with Express")
    assert history.steps[7].actions[0].params["text"] == "grace@example.org"
    chosen = history.steps[1].interacted[0]
    assert chosen is not None and chosen.name == "red kettle" and chosen.attribute("href") is None


def test_retarget_keeps_the_kind_of_element_and_drops_what_named_the_recorded_one() -> None:
    recorded = Fingerprint(
        tag="a",
        name="buy blue ceramic mug",
        text="buy blue ceramic mug",
        attributes=(("href", "/product/blue-mug"), ("data-testid", "product-link")),
        classes=("card-link",),
        ancestors=("div.card", "main"),
        before=("kitchen things",),
        after=("12.50 eur",),
        anchors=(("after", 0, "12.50 eur"),),
        twins=2,
        group=("12.50 eur",),
        group_depth=1,
    )
    moved = retarget(recorded, "Blue ceramic mug", "Red kettle")
    assert (moved.name, moved.text) == ("buy red kettle", "buy red kettle")
    assert moved.attributes == (("data-testid", "product-link"),)
    assert (moved.classes, moved.ancestors, moved.tag) == (recorded.classes, recorded.ancestors, "a")
    assert not (moved.before or moved.after or moved.anchors or moved.group or moved.twins)


BASE = {"format": "browser-agent-workflow", "version": 1}


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not JSON"),
        ('{"version": 2, "steps": [{"step": 1, "model_output": null}]}', "is a run history, not a workflow"),
        ('{"name": "other"}', 'is not a workflow (no "format": "browser-agent-workflow")'),
        (json.dumps(BASE | {"version": 7}), "has workflow version 7; this browser_agent reads version 1"),
        (json.dumps(BASE | {"steps": [{"params": {}}]}), "steps[0].action: Field required"),
        (
            json.dumps(
                BASE | {"steps": [{"action": "go_to_url", "params": {"url": "x"}, "inputs": {"url": "site"}}]}
            ),
            "step 1 uses the input 'site', which is not in 'inputs'",
        ),
        (
            json.dumps(BASE | {"inputs": [{"name": "email", "default": "a", "source": "typed"}]}),
            "inputs ['email'] are used by no step",
        ),
        (
            json.dumps(BASE | {"inputs": [{"name": "Bad Name", "default": "a", "source": "typed"}]}),
            "inputs[0].name: String should match pattern",
        ),
        (
            json.dumps(BASE | {"steps": [{"action": "click_element", "params": {}, "target_input": "x"}]}),
            "target_input is set but the step has no target element",
        ),
    ],
)
def test_a_bad_workflow_file_is_one_user_error_naming_the_problem(
    tmp_path: Path, content: str, says: str
) -> None:
    path = tmp_path / "bad.workflow.json"
    path.write_text(content)
    with pytest.raises(UserError) as caught:
        Workflow.load(path)
    message = str(caught.value)
    assert says in message and str(path) in message and "\n" not in message, message
