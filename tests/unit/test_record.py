"""The typed run record: a history saved before the record was typed loads into typed steps, and is saved
again in the same JSON."""

from __future__ import annotations

import json
from pathlib import Path

from browser_agent.controller import ActionResult, Controller
from browser_agent.record import ActionCall, AgentHistory, RecordedResult, describe_call, describe_outcome
from browser_agent.reid import Fingerprint

SAVED_BY_0_1 = Path(__file__).parents[1] / "fixtures" / "history_v2_main.json"


def test_a_history_saved_before_the_typed_record_loads_typed() -> None:
    history = AgentHistory.load(SAVED_BY_0_1, Controller())
    opened, wrong, typed, done = history.steps
    assert opened.brain is None and [a.name for a in opened.actions] == ["go_to_url"]
    assert wrong.failed and wrong.results[0].error and "element 99" in wrong.results[0].error
    assert typed.actions[0].name == "input_text" and typed.actions[0].params["text"] == "ada"
    assert isinstance(typed.results[0], RecordedResult) and typed.results[0].error is None
    assert isinstance(typed.interacted[0], Fingerprint) and typed.interacted[1] is None
    assert typed.next_goal == "type and wait" and not typed.failed
    assert done.final is not None and history.final_result() == "typed ada" and history.is_successful()
    assert history.error_count() == 1


def test_saving_a_loaded_history_writes_the_same_json(tmp_path: Path) -> None:
    history = AgentHistory.load(SAVED_BY_0_1)
    again = history.save(tmp_path / "again.json")
    assert json.loads(again.read_text()) == json.loads(SAVED_BY_0_1.read_text())


def test_a_history_saved_without_the_last_picture_loads_and_counts_its_model_steps() -> None:
    """Files saved before the page after the last action was kept load with none; step 0 (the page opened
    before the model's first step) is no model step, and the count says it is there."""
    assert "final_screenshot" not in json.loads(SAVED_BY_0_1.read_text())
    history = AgentHistory.load(SAVED_BY_0_1)
    assert history.final_screenshot is None
    assert history.model_steps() == 3 and history.steps_label() == "3 (+ step 0)"
    history.steps = history.steps[1:]
    assert history.model_steps() == 3 and history.steps_label() == "3"


def test_a_call_and_its_outcome_are_said_one_way() -> None:
    call = ActionCall.model_validate({"action": "input_text", "index": 2, "text": "ada"})
    assert call.flat() == {"action": "input_text", "index": 2, "text": "ada"}
    assert describe_call(call) == "input_text(index=2, text='ada')"
    assert str(describe_outcome(ActionResult(action="x", error="boom"))) == "failed: boom"
    assert (
        str(describe_outcome(ActionResult(action="x", skipped=True, extracted_content="why")))
        == "skipped: why"
    )
    assert str(describe_outcome(ActionResult(action="x", extracted_content="y" * 10)).cut(5)) == "yyyy…"
    assert str(describe_outcome(ActionResult(action="x"))) == "ok"
