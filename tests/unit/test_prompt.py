"""The request a model reads: a small fixed part, a beginning that never changes within a run, and
schemas each server accepts."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import jsonschema
import pytest
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from browser_agent import Controller
from browser_agent.agent.conversation import Conversation
from browser_agent.agent.evaluation_pins import FIRST_EVALUATION
from browser_agent.agent.loops import NO_ELEMENT
from browser_agent.browser.state import BrowserState, TabInfo
from browser_agent.controller.reply import build_output_model, tool_parameters
from browser_agent.llm import grammar_schema
from browser_agent.llm.cache import with_cache_points
from browser_agent.record import AgentStep
from tests.support.tokens import count_tokens


def _step(number: int, output: dict | None, results: list[dict], error: str | None = None) -> AgentStep:
    """A finished step as the agent records it."""
    return AgentStep.model_validate(
        {"step": number, "model_output": output, "results": results, "error": error}
    )


# 1,000 until go_to_url took `reload` (issue 44: reopening the open page lost what was typed): 13 more;
# then the worked examples (issue 44, eighteenth stretch: read once per run, from the prefix cache): a form
# filled in one step, 145 more; a question answered by `done` with the value, 53 more
FIXED_BUDGET = 1_211
tokens = count_tokens


def builder(budget: int = 32_000) -> Conversation:
    controller = Controller()
    return Conversation(
        "Subscribe ada@example.com",
        max_actions=5,
        max_input_tokens=budget,
        actions=controller.describe_actions(),
    )


def output_model() -> Any:
    return build_output_model(Controller().action_union(), 5)


def state(n: int, page_chars: int = 400) -> BrowserState:
    url = f"http://127.0.0.1:1/page{n}"
    return BrowserState(url=url, title=f"Page {n}", tabs=(TabInfo(0, url, f"Page {n}"),), current_tab_id=0)


def serialized(messages: list[BaseMessage]) -> list[str]:
    return [f"{m.type}:{m.content}" for m in messages]


def test_the_fixed_part_of_a_request_stays_within_its_budget() -> None:
    system = str(builder()._system.content)
    tool = {
        "type": "function",
        "function": {"name": "AgentOutput", "parameters": tool_parameters(output_model())},
    }
    tool_tokens = tokens(json.dumps(tool, separators=(",", ":")))
    assert tokens(system) + tool_tokens <= FIXED_BUDGET, (tokens(system), tool_tokens)
    for name in (a.name for a in Controller().registry.actions(every=True)):
        assert f"- {name}(" in system, f"{name} is described once, in the system prompt"
    assert "description" not in json.dumps(tool["function"]["parameters"]), "no description said twice"


def test_the_worked_example_is_a_valid_reply_on_its_own_page() -> None:
    """The system prompt's example reply validates as a reply (it keeps up with the actions' fields), and
    acts only on indices of the page it shows."""
    system = str(builder()._system.content)
    example = system[system.index("Example:") :]
    page = example[example.index("\n") + 1 : example.index("gets the reply")]
    reply = json.loads(example[example.index("gets the reply") :].split("\n", 1)[1].split("\n", 1)[0])
    parsed = output_model().model_validate(reply)
    shown = {int(i) for i in re.findall(r"^\[(\d+)\]<", page, flags=re.M)}
    assert [a["index"] for a in reply["action"]] and {a["index"] for a in reply["action"]} <= shown
    assert len(parsed.action) == 2 and parsed.current_state.memory
    # the first step's evaluation is the one the grammar writes (agent/evaluation_pins.py)
    assert reply["current_state"]["evaluation_previous_goal"] == FIRST_EVALUATION[0][1]


def test_a_small_context_leaves_the_worked_examples_out() -> None:
    """A model whose context holds little (a budget of 1,032 estimated tokens: a 2,400-token context) gets
    the system prompt without its examples, for the page and the results to fit; a larger one keeps them."""
    roomy, small = builder(), builder()
    roomy.set_budget(5_376)  # an 8,192-token context
    small.set_budget(1_032)
    kept, lean = str(roomy._system.content), str(small._system.content)
    assert "Example:" in kept and "Example:" not in lean
    assert "{examples}" not in kept + lean and "\n\n\n" not in lean
    assert tokens(lean) < tokens(kept) - 150


def assert_extends(previous: list[str], request: list[str]) -> None:
    """Everything of ``previous`` but its state message opens ``request`` (memos only grow at the end)."""
    assert "".join(request).startswith("".join(previous[:-1])), "an earlier part of the request changed"


def test_every_request_begins_with_the_previous_one_but_its_last_message() -> None:
    messages = builder()
    previous: list[str] | None = None
    for n in range(1, 8):
        text = messages.state_text(state(n), step=n, max_steps=10, plan=None)
        request = serialized(messages.build(text))
        if previous is not None:
            assert_extends(previous, request)
        output = {
            "current_state": {"evaluation_previous_goal": "ok", "memory": f"m{n}", "next_goal": f"g{n}"},
            "action": [{"action": "wait"}],
        }
        messages.add_memo(_step(n, output, [{"action": "wait", "extracted_content": "Waited 1 s"}]))
        previous = request


def test_trimming_cuts_once_then_the_beginning_stays_stable_again() -> None:
    messages = builder(budget=1_200)
    cuts, previous = 0, None
    for n in range(1, 40):
        text = messages.state_text(state(n), step=n, max_steps=40, plan=None)
        before = messages.dropped
        request = serialized(messages.build(text))
        if messages.dropped != before:
            cuts += 1
        elif previous is not None:
            assert_extends(previous, request)
        output = {
            "current_state": {
                "evaluation_previous_goal": "ok",
                "memory": "m",
                "next_goal": f"goal of step {n}",
            },
            "action": [{"action": "go_back"}],
        }
        messages.add_memo(
            _step(n, output, [{"action": "go_back", "extracted_content": f"Went back to page {n}"}])
        )
        previous = request
    assert 1 <= cuts <= 6, f"{cuts} cuts in 39 steps: trimming should leave room for several steps"


def test_the_grammar_schema_is_portable_and_admits_exactly_valid_replies() -> None:
    schema = grammar_schema(output_model())
    text = json.dumps(schema)
    assert (
        "$ref" not in text and "oneOf" not in text and '"const"' not in text and "discriminator" not in text
    )
    good = {
        "current_state": {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "type"},
        "action": [
            {"action": "input_text", "index": 2, "text": "ada"},
            {"action": "click_element", "index": 3},
        ],
    }
    jsonschema.validate(good, schema)
    output_model().model_validate(good)
    for bad in (
        {**good, "action": [{"action": "click_element"}]},
        {**good, "action": [{"action": "fly", "to": "moon"}]},
        {**good, "action": [{"action": "click_element", "index": 1, "extra": 1}]},
        {**good, "action": []},
        {"action": good["action"]},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


def _admits(schema: dict[str, Any], *actions: dict[str, object]) -> bool:
    """Whether a reply with ``actions`` (and any state) fits the grammar ``schema``."""
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "go on"}
    try:
        jsonschema.validate({"current_state": brain, "action": list(actions)}, schema)
    except jsonschema.ValidationError:
        return False
    return True


def test_the_grammar_leaves_out_spent_element_actions_and_an_action_with_no_element_left() -> None:
    schema = grammar_schema(
        output_model(), indices=(0, 1), left_out=(("input_text", 0), ("hover", 0), ("hover", 1))
    )
    admits = functools.partial(_admits, schema)
    assert not admits({"action": "input_text", "index": 0, "text": "ada"})
    assert admits({"action": "input_text", "index": 1, "text": "ada"})
    assert admits({"action": "click_element", "index": 0})
    assert not admits({"action": "hover", "index": 0}) and not admits({"action": "hover", "index": 1})
    branches = schema["properties"]["action"]["items"]["anyOf"]
    assert ["hover"] not in [b["properties"]["action"]["enum"] for b in branches], "no element left to hover"
    assert admits({"action": "done", "text": "ok", "success": True})


def test_the_grammar_leaves_out_a_spent_action_on_no_element_but_never_done() -> None:
    """An extraction or a wait that left the page as it was is not offered again on it; a scroll of the
    page that did not move it leaves the scroll of a panel (an element)."""
    spent = (("extract_content", NO_ELEMENT), ("wait", NO_ELEMENT), ("scroll", NO_ELEMENT))
    schema = grammar_schema(output_model(), indices=(0, 1), left_out=spent)
    admits = functools.partial(_admits, schema)
    assert not admits({"action": "extract_content", "goal": "the price"})
    assert not admits({"action": "wait", "seconds": 2})
    assert not admits({"action": "scroll", "direction": "down"})
    assert admits({"action": "scroll", "direction": "down", "index": 1})
    assert admits({"action": "done", "text": "42", "success": True})
    assert _admits(grammar_schema(output_model(), indices=(0, 1)), {"action": "wait", "seconds": 2})


def test_the_grammar_can_pin_a_text_field_to_one_text() -> None:
    pinned = (("current_state.evaluation_previous_goal", "None yet"),)
    schema = grammar_schema(output_model(), indices=(0,), pinned=pinned)
    done = [{"action": "done", "text": "ok", "success": True}]
    brain = {"evaluation_previous_goal": "None yet", "memory": "", "next_goal": "finish"}
    jsonschema.validate({"current_state": brain, "action": done}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(
            {"current_state": {**brain, "evaluation_previous_goal": "Failed"}, "action": done}, schema
        )
    assert (
        "enum"
        not in grammar_schema(output_model(), indices=(0,))["properties"]["current_state"]["properties"][
            "evaluation_previous_goal"
        ]
    ), "the cached grammar is not changed by a pinned one"


def test_fields_of_other_actions_are_dropped_but_a_missing_field_is_an_error() -> None:
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "go"}
    flat = {"action": "go_to_url", "url": "https://a.example", "index": None, "text": None}  # a flat tool
    neighbour = {"action": "click_element", "index": 3, "text": "Subscribe"}  # a small model's addition
    parsed = output_model().model_validate({"current_state": brain, "action": [flat, neighbour]})
    assert parsed.action[0].model_dump() == {
        "action": "go_to_url",
        "url": "https://a.example",
        "reload": False,
    }
    assert parsed.action[1].model_dump() == {"action": "click_element", "index": 3}
    with pytest.raises(ValueError, match=r"click_element.index\n  Field required"):
        output_model().model_validate(
            {"current_state": brain, "action": [{"action": "click_element", "text": "Go"}]}
        )
    with pytest.raises(ValueError, match=r"go_to_url.adress\n  Extra inputs"):  # a misspelling is named
        output_model().model_validate(
            {"current_state": brain, "action": [{"action": "go_to_url", "url": "x", "adress": "x"}]}
        )
    with pytest.raises(ValueError, match="does not match any of the expected tags"):
        output_model().model_validate({"current_state": brain, "action": [{"action": "fly", "to": "moon"}]})


def test_a_lone_unknown_field_fills_the_one_field_the_action_lacks() -> None:
    """Small models copy the reply example's "<parameter>" key; its value is validated as the field."""
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "go"}

    def parse(action: dict[str, object]) -> dict[str, object]:
        parsed = output_model().model_validate({"current_state": brain, "action": [action]})
        return parsed.action[0].model_dump()

    assert parse({"action": "click_element", "parameter": "3"}) == {"action": "click_element", "index": 3}
    assert parse({"action": "go_to_url", "<parameter>": "https://a.example"})["url"] == "https://a.example"
    with pytest.raises(ValueError, match=r"click_element.index\n  Input should be a valid integer"):
        parse({"action": "click_element", "parameter": "Submit"})  # still checked as the index it fills
    with pytest.raises(ValueError, match=r"Extra inputs"):  # two unknown fields: which one is meant?
        parse({"action": "click_element", "parameter": "3", "what": "3"})
    with pytest.raises(ValueError, match=r"input_text.text\n  Field required"):  # two missing: no guess
        parse({"action": "input_text", "parameter": "3"})


def test_an_action_written_as_a_call_is_read_as_that_call() -> None:
    """Small models copy the memo's call text into the action's name: "click_element(index=1)"."""
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": "go"}

    def parse(action: dict[str, object]) -> dict[str, object]:
        parsed = output_model().model_validate({"current_state": brain, "action": [action]})
        return parsed.action[0].model_dump()

    assert parse({"action": "click_element(index=1)"}) == {"action": "click_element", "index": 1}
    typed = parse({"action": "input_text(index=0, text='Ada (admin)')"})
    assert typed["index"] == 0 and typed["text"] == "Ada (admin)"
    assert parse({"action": "go_back()"}) == {"action": "go_back"}
    assert parse({"action": "click_element(index=1)", "index": 2})["index"] == 2, "a field given wins"
    assert parse({"action": "click_element(index=1)", "index": None})["index"] == 1
    for text in (
        "click_element(1)",  # a positional argument: which field?
        "click_element(index=len('xx'))",  # not a literal: nothing is run
        "fly(to='moon')",  # not an action
        "click_element(index=1",  # not a call
    ):
        with pytest.raises(ValueError, match="does not match any of the expected tags"):
            parse({"action": text})
    with pytest.raises(ValueError, match=r"click_element.index\n  Input should be a valid integer"):
        parse({"action": "click_element(index='Submit')"})  # still validated


def test_anthropic_requests_mark_the_stable_beginning_for_its_cache() -> None:
    anthropic = pytest.importorskip("langchain_anthropic")
    llm = anthropic.ChatAnthropic(model="claude-sonnet-4-5", api_key="sk-ant-test")
    messages = [SystemMessage(content="rules"), HumanMessage(content="task"), HumanMessage(content="state")]
    payload = llm._get_request_payload(with_cache_points(llm, messages))
    assert payload["system"][-1]["cache_control"] == {"type": "ephemeral"}
    task_blocks = [b for m in payload["messages"] for b in m["content"] if isinstance(b, dict)]
    assert any(b.get("cache_control") and b.get("text") == "task" for b in task_blocks), payload["messages"]
    assert not any(b.get("cache_control") and b.get("text") == "state" for b in task_blocks)
    openai = pytest.importorskip("langchain_openai")
    other = openai.ChatOpenAI(model="gpt-4o-mini", api_key="sk-test")
    assert with_cache_points(other, messages) == messages


def test_only_a_wait_an_extraction_go_back_or_a_text_to_find_is_spent_without_an_element() -> None:
    """A second call of these cannot do more on a page the first left as it was (a text to find that left
    it so was not found, or was in view already); a scroll the other way, other keys, another URL or a
    user's own action (saving one item after another) can."""
    from browser_agent.agent.loops import LoopWatch
    from browser_agent.record import ActionCall

    watch = LoopWatch()
    calls = [
        ActionCall(name="wait", params={"seconds": 1}),
        ActionCall(name="extract_content", params={"goal": "the price"}),
        ActionCall(name="go_back"),
        ActionCall(name="scroll", params={"direction": "down"}),
        ActionCall(name="send_keys", params={"keys": "Escape"}),
        ActionCall(name="go_to_url", params={"url": "http://127.0.0.1:1/"}),
        ActionCall(name="save_item", params={"name": "Red mug"}),
        ActionCall(name="click_element", params={"index": 3}),
        ActionCall(name="scroll_to_text", params={"text": "Edward Lorenz died in 2008."}),
    ]
    for step, call in enumerate(calls, start=1):
        watch.check(step, "page", [call])
    assert watch.spent("page") == (
        ("click_element", 3),
        ("extract_content", NO_ELEMENT),
        ("go_back", NO_ELEMENT),
        ("scroll_to_text", NO_ELEMENT),
        ("wait", NO_ELEMENT),
    )
