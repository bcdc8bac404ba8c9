"""Healing without a browser: a healed workflow from a replay report (what a model did kept, its inputs
kept, a secret it typed never written), where it is written, and ``workflow_diff``."""

from __future__ import annotations

from pathlib import Path

import pytest

from browser_agent import artifacts
from browser_agent.controller import ActionResult
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.playback import ReplayedAction, ReplayReport
from browser_agent.playback.heal import healed_path
from browser_agent.playback.rescue import Rescue
from browser_agent.record import ActionCall, AgentHistory
from browser_agent.workflow import Workflow, make_workflow
from browser_agent.workflow.diff import workflow_diff
from browser_agent.workflow.heal import healed_workflow


@pytest.fixture(scope="module")
def workflow() -> Workflow:
    return make_workflow(AgentHistory.load(RECORDED_RUN))


def _report(workflow: Workflow, healed: dict[int, ActionCall]) -> ReplayReport:
    """A report of ``workflow``'s run in which the model did steps ``healed`` (1 = the first)."""
    actions = []
    for number, step in enumerate(workflow.steps, start=1):
        call = ActionCall(name=step.action, params=step.params)
        if number in healed:
            rescue = Rescue(ActionResult(action=healed[number].name), healed[number], step.target)
            actions.append(
                ReplayedAction(number, call, "handed_to_llm", "gone; handed to the llm: ok", rescue=rescue)
            )
        else:
            actions.append(ReplayedAction(number, call, "relocated", "ok"))
    return ReplayReport(actions=actions)


def _typing_step(workflow: Workflow, name: str) -> int:
    return next(n for n, s in enumerate(workflow.steps, start=1) if s.inputs.get("text") == name)


def test_a_value_the_model_typed_that_is_the_runs_input_stays_that_input(workflow: Workflow) -> None:
    number = _typing_step(workflow, "email")
    values = workflow.values({"email": "grace@example.org"})
    typed = ActionCall(name="input_text", params={"index": 9, "text": "grace@example.org", "clear": True})
    healed = healed_workflow(workflow, values, _report(workflow, {number: typed}), "shop.workflow.json")
    assert healed is not None and healed.healed is not None
    step = healed.steps[number - 1]
    assert step.inputs == {"text": "email"} and step.params["text"] == "ada@example.com"
    assert healed.inputs == workflow.inputs and healed.healed.healed_from == "shop.workflow.json"
    assert healed.healed.changes[0].action_before["text"] == "ada@example.com"


def test_a_value_the_model_made_up_drops_the_input_and_the_diff_says_so(workflow: Workflow) -> None:
    number = _typing_step(workflow, "email")
    typed = ActionCall(name="input_text", params={"index": 9, "text": "someone@else.example", "clear": True})
    healed = healed_workflow(workflow, workflow.values(), _report(workflow, {number: typed}), "w.json")
    assert healed is not None and "email" not in [i.name for i in healed.inputs]
    lines = workflow_diff(workflow, healed)
    assert lines[0] == f"step {number}: input_text → input_text"
    assert "  text: 'ada@example.com' → 'someone@else.example'" in lines
    assert "  inputs: text={email} → none" in lines and lines[-1] == "inputs no longer used: email"
    assert workflow_diff(workflow, workflow) == []


def test_a_secret_a_hostile_model_types_in_clear_is_never_written(workflow: Workflow, tmp_path: Path) -> None:
    artifacts.remember({"card_pin": "7731-secret-pin"})
    number = _typing_step(workflow, "full_name")
    typed = ActionCall(name="input_text", params={"index": 3, "text": "7731-secret-pin", "clear": True})
    healed = healed_workflow(workflow, workflow.values(), _report(workflow, {number: typed}), "w.json")
    assert healed is not None
    written = healed.save(healed_path(tmp_path / "buy.workflow.json")).read_text()
    assert "7731-secret-pin" not in written and "<secret>card_pin</secret>" in written
    assert Workflow.load(tmp_path / "buy.workflow.healed.json").healed is not None


def test_nothing_healed_is_no_healed_workflow(workflow: Workflow) -> None:
    assert healed_workflow(workflow, workflow.values(), _report(workflow, {}), "w.json") is None


def test_the_healed_copy_goes_beside_the_original_never_over_it() -> None:
    assert healed_path("dir/buy.workflow.json") == Path("dir/buy.workflow.healed.json")
    assert healed_path("run.json") == Path("run.healed.json")
    assert healed_path("notes") == Path("notes.healed.json")


async def test_diff_of_a_hostile_healed_file_prints_its_escapes_instead_of_obeying_them(
    workflow: Workflow, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from browser_agent.cli import main_async

    number = _typing_step(workflow, "email")
    typed = ActionCall(name="input_text", params={"index": 9, "text": "x\x1b]0;pwned\x07", "clear": True})
    healed = healed_workflow(
        workflow, workflow.values(), _report(workflow, {number: typed}), "buy.workflow.json"
    )
    assert healed is not None
    data = healed.model_dump(mode="json")
    data["healed"]["changes"][0]["reason"] = "\x1b[2J\x1b[31mgone"
    (tmp_path / "buy.workflow.healed.json").write_text(Workflow.model_validate(data).model_dump_json())
    workflow.save(tmp_path / "buy.workflow.json")
    assert await main_async(["workflow", "show", str(tmp_path / "buy.workflow.healed.json"), "--diff"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "  why: \\x1b[2J\\x1b[31mgone" in out and "\\x1b]0;pwned\\x07" in out
