"""What small and local models need: constrained JSON, a working method found by itself, no silent
loops, no pointless reloads, no guessed indices. Real Chromium; the model is langchain-openai against a
local OpenAI-compatible stand-in (which behaves like llama.cpp's server) or the scripted model."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentRunError, AgentSettings, BrowserSession, Controller
from browser_agent.agent.conversation import page_of_state
from browser_agent.agent.evaluation_pins import FIRST_EVALUATION as FIRST_PINS
from browser_agent.models import chat_model
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.fake_openai import Cut, FakeOpenAI
from tests.support.server import LocalServer

pytest.importorskip("langchain_openai")


FIRST_EVALUATION = FIRST_PINS[0][1]


def brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}


def answers(server: LocalServer) -> list[dict[str, Any]]:
    return [
        {
            "current_state": brain("open"),
            "action": [{"action": "go_to_url", "url": server.url("agent/code.html")}],
        },
        {"current_state": brain("report"), "action": [{"action": "done", "text": "XK-42", "success": True}]},
    ]


def local_llm(fake: FakeOpenAI) -> Any:
    return chat_model("openai:local", base_url=fake.base_url, api_key="local", max_retries=0)


async def test_json_schema_requests_carry_a_schema_the_server_decodes_to(
    session: BrowserSession, server: LocalServer
) -> None:
    with FakeOpenAI(answers(server)) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(3)
    assert history.final_result() == "XK-42"
    assert fake.schema_errors == []
    first, second = (
        r["response_format"]["json_schema"]["schema"]["properties"]["current_state"] for r in fake.requests
    )
    assert first["properties"]["evaluation_previous_goal"]["enum"] == [FIRST_EVALUATION], (
        "no previous goal yet"
    )
    assert second["properties"]["evaluation_previous_goal"]["enum"] == ["Success"], (
        "from the second step, what the last actions did"
    )
    output = history.steps[0].model_output
    assert output is not None and output.current_state.evaluation_previous_goal == FIRST_EVALUATION
    for request in fake.requests:
        assert "tools" not in request
        assert request["response_format"]["type"] == "json_schema"
        schema = request["response_format"]["json_schema"]["schema"]
        assert "anyOf" in str(schema) and "$ref" not in str(schema)
        assert "Reply with one JSON object" in request["messages"][0]["content"]
        assert "matching this JSON schema" not in str(request["messages"]), "the schema is not said twice"


async def test_auto_switches_to_json_schema_when_the_server_answers_tools_with_text(
    session: BrowserSession, server: LocalServer, caplog: pytest.LogCaptureFixture
) -> None:
    # The first reply comes as text to a forced tool call (what llama.cpp does); it is valid, so it is
    # taken, and every later request asks for constrained JSON instead of a tool.
    with FakeOpenAI(answers(server), tools_as_text=True) as fake, caplog.at_level(logging.WARNING):
        history = await Agent("Read the code", local_llm(fake), browser=session).run(max_steps=3)
    assert history.final_result() == "XK-42"
    first, second = fake.requests
    assert "tools" in first and "response_format" not in first
    assert "tools" not in second and second["response_format"]["type"] == "json_schema"
    said = [r.getMessage() for r in caplog.records if "does not call tools" in r.getMessage()]
    assert len(said) == 1 and "json_schema" in said[0]


async def test_auto_retries_the_same_request_as_json_schema_after_an_invalid_text_answer(
    session: BrowserSession, server: LocalServer
) -> None:
    broken = {"current_state": brain("open")}  # no actions: invalid, but as text to a forced tool call
    with FakeOpenAI([broken, *answers(server)], tools_as_text=True) as fake:
        history = await Agent("Read the code", local_llm(fake), browser=session).run(max_steps=3)
    assert history.final_result() == "XK-42"
    assert history.steps[0].corrections == 0, "a method switch is not a correction"
    assert [("tools" in r, "response_format" in r) for r in fake.requests] == [
        (True, False),
        (False, True),
        (False, True),
    ]


@pytest.mark.parametrize("method", ["json_schema", "raw"])
async def test_a_reply_cut_at_the_token_limit_goes_back_to_the_model_even_when_it_parses(
    session: BrowserSession, server: LocalServer, method: str
) -> None:
    # The text is complete JSON, yet the server said it stopped at the limit: its last action may be
    # cut short, so it is not run. (With a response format the openai client raises on it instead.)
    first, *rest = answers(server)
    with FakeOpenAI([Cut(json.dumps(first)), first, *rest]) as fake:
        settings = AgentSettings(tool_calling_method=method)
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(3)
    assert history.final_result() == "XK-42"
    assert history.steps[0].corrections == 1
    told = fake.requests[1]["messages"][-1]["content"]
    assert "cut off at the output token limit" in told, told


async def test_replies_that_never_validate_still_count_in_the_step_tokens(
    session: BrowserSession, server: LocalServer
) -> None:
    invalid = {"current_state": brain("open")}  # no actions, three times: the step fails
    with FakeOpenAI([invalid, invalid, invalid, *answers(server)]) as fake:
        settings = AgentSettings(tool_calling_method="raw")
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(4)
    assert history.final_result() == "XK-42"
    failed = history.steps[0]
    assert failed.error is not None and "did not match" in failed.error
    assert (failed.usage.input_tokens, failed.usage.output_tokens) == (900, 60)  # 3 calls of 300 + 20


async def test_replies_that_never_validate_still_count_their_cache_reads(
    session: BrowserSession, server: LocalServer
) -> None:
    invalid = {"current_state": brain("open")}
    with FakeOpenAI([invalid, invalid, invalid, *answers(server)], prefix_cache=True) as fake:
        settings = AgentSettings(tool_calling_method="raw")
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(4)
    failed = history.steps[0]
    assert failed.error is not None
    # The two corrections resend the first request with more appended: all of it was cached.
    assert 0 < failed.usage.cached_input_tokens < failed.usage.input_tokens


async def test_the_provider_s_cache_reads_are_recorded_and_cover_all_but_the_newest_step(
    session: BrowserSession, server: LocalServer
) -> None:
    # The stand-in reuses the previous prompt's prefix as llama.cpp does and says how much, as OpenAI
    # does; langchain-openai reads it and each step records it.
    moves = [
        {"action": "scroll", "direction": "down"},
        {"action": "wait", "seconds": 0},
        {"action": "scroll", "direction": "up"},
        {"action": "wait", "seconds": 0.1},
    ]
    first, done = answers(server)
    steps = [
        first,
        *({"current_state": brain(f"look {n}"), "action": [m]} for n, m in enumerate(moves)),
        done,
    ]
    with FakeOpenAI(steps, prefix_cache=True) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(8)
    assert history.final_result() == "XK-42"
    shares = [s.usage.cached_input_tokens / s.usage.input_tokens for s in history.steps]
    assert shares[0] == 0 and all(0 < share < 1 for share in shares[1:]), shares
    # From the third request on, all that changes is the newest memo and the state (a short page here).
    assert min(shares[2:]) >= 0.8, shares
    assert history.usage.agent.cached_input_tokens == sum(s.usage.cached_input_tokens for s in history.steps)


def test_the_decoding_grammar_caps_the_text_fields_and_nothing_else_does() -> None:
    from browser_agent.controller.reply import build_output_model, tool_parameters
    from browser_agent.llm.schemas import compact_schema, grammar_schema

    output = build_output_model(Controller().action_union(), 3)
    brain_schema = grammar_schema(output)["properties"]["current_state"]["properties"]
    assert {k: v["maxLength"] for k, v in brain_schema.items()} == {
        "evaluation_previous_goal": 200,
        "memory": 600,
        "next_goal": 200,
    }
    assert "maxLength" not in json.dumps(tool_parameters(output)) + compact_schema(output)
    long_memory = {**brain("x"), "memory": "m" * 5_000}
    reply = {"current_state": long_memory, "action": [{"action": "wait", "seconds": 0}]}
    assert output.model_validate(reply).current_state.memory == "m" * 5_000  # a longer text is not refused


def _state(messages: list[BaseMessage]) -> str:
    return next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content))


async def test_a_repeat_is_told_to_the_model_and_the_third_ends_the_step(
    session: BrowserSession, server: LocalServer
) -> None:
    seen: list[str] = []
    same = {"action": "scroll_to_text", "text": "The secret code"}  # succeeds, changes nothing

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        seen.append(_state(messages))
        if len(seen) == 1:
            return {
                "current_state": brain("open"),
                "action": [{"action": "go_to_url", "url": server.url("agent/code.html")}],
            }
        return {"current_state": brain("look"), "action": [same]}

    settings = AgentSettings(max_failures=2)
    agent = Agent("Find it", ScriptedChatModel(policy=policy), browser=session, settings=settings)
    with pytest.raises(AgentRunError, match="2 steps failed in a row") as caught:
        await agent.run(max_steps=10)
    steps = caught.value.history.steps
    # Step 2 sends it first; 3 and 4 repeat it (each told in the next state); 5 is the third repeat (not
    # run, failed), 6 too: two failures in a row end the run.
    assert "sent exactly these actions" not in seen[2]
    assert "You sent exactly these actions on this same page before (step 2)" in seen[3]
    assert "(step 2, 3)" in seen[4] and "scroll_to_text(text='The secret code')" in seen[4]
    assert steps[4].error is not None and steps[4].error.startswith(
        "Loop: these actions were already sent 3 times"
    )
    assert steps[4].results == [], "a looping step runs nothing"
    assert steps[3].results and steps[3].error is None


async def test_a_repeat_is_seen_on_a_page_whose_clock_ticks(
    session: BrowserSession, server: LocalServer
) -> None:
    # The countdown changes the page's text between any two steps; typing the same name again is still
    # the same action on the same page.
    await session.navigate(server.url("agent/clock.html"))
    seen: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        seen.append(_state(messages))
        name = find_index(page_of_state(seen[-1]), "input", "Name")
        return {
            "current_state": brain("type"),
            "action": [{"action": "input_text", "index": name, "text": "Ada"}],
        }

    agent = Agent("Type Ada and submit", ScriptedChatModel(policy=policy), browser=session)
    history = await agent.run(max_steps=5)
    assert re.search(r"Time left: \d+ s", seen[2]) and seen[1] != seen[2], (
        "the clock ticked between the steps"
    )
    # Step 1 fills the field; step 2 sends the same on the filled page, 3 and 4 repeat that, 5 is not run.
    assert "You sent exactly these actions on this same page before (step 2)" in seen[3]
    assert history.steps[4].error is not None and history.steps[4].error.startswith("Loop:")


async def test_a_toggle_that_changes_the_page_is_no_repeat(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/native.html"))
    state = await session.state()
    assert state.snapshot is not None
    box = find_index(page_of_state("<page>\n" + _render(state) + "\n</page>"), "input", "I agree")
    click = {"current_state": brain("toggle"), "action": [{"action": "click_element", "index": box}]}
    finish = {"current_state": brain("end"), "action": [{"action": "done", "text": "ok", "success": True}]}
    llm = ScriptedChatModel(replies=[click, click, click, finish])
    history = await Agent("Toggle", llm, browser=session).run(max_steps=5)
    assert history.is_successful() and not any(s.error for s in history.steps)


def _render(state: Any) -> str:
    from browser_agent.dom.serializer import render

    return render(state.snapshot)


async def test_go_to_url_of_the_current_page_does_not_reload_or_stop_the_list(
    session: BrowserSession, server: LocalServer
) -> None:
    url = server.url("controller/form.html")
    await session.navigate(url)
    await session.page.evaluate("window.__before = 1")
    name = await _index(session, "Full name")
    results = await Controller().run(
        [{"action": "go_to_url", "url": url}, {"action": "input_text", "index": name, "text": "Ada"}], session
    )
    assert results[0].extracted_content == f"Already at {url}: not reloaded"
    assert results[1].error is None and not results[1].skipped
    assert await session.page.evaluate("window.__before") == 1, "the page was not reloaded"


async def _index(session: BrowserSession, text: str) -> int:
    from tests.support.pages import index_of

    return await index_of(session, text)


async def test_an_index_before_any_page_was_seen_is_an_error_the_model_reads(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.page.goto(server.url("controller/form.html"))  # loaded, but never captured
    [result] = await Controller().run([{"action": "click_element", "index": 1}], session)
    assert result.error is not None and "no page has been captured yet" in result.error
    assert re.search(r"look at the page first", result.error)


async def test_json_schema_admits_only_the_indices_of_the_page_the_model_sees(
    session: BrowserSession, server: LocalServer
) -> None:
    import jsonschema

    login = server.url("agent/login.html")
    script = [
        {"current_state": brain("open"), "action": [{"action": "go_to_url", "url": login}]},
        {"current_state": brain("report"), "action": [{"action": "done", "text": "seen", "success": True}]},
    ]
    with FakeOpenAI(script) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent(
            "Fill in the username", local_llm(fake), browser=session, settings=settings
        ).run(3)
    assert history.final_result() == "seen" and fake.schema_errors == []
    blank, form = (r["response_format"]["json_schema"]["schema"] for r in fake.requests)

    def actions(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
        branches = schema["properties"]["action"]["items"]["anyOf"]
        return {b["properties"]["action"]["enum"][0]: b for b in branches}

    assert "click_element" not in actions(blank), "a blank tab has no element to click"
    assert actions(blank)["scroll"]["properties"]["index"] == {"type": "null"}
    indices = actions(form)["click_element"]["properties"]["index"]["enum"]
    assert indices == list(range(len(indices))) and len(indices) >= 3, indices
    done = {**brain("x"), "evaluation_previous_goal": "Success"}  # pinned: the page opened
    click = {"current_state": done, "action": [{"action": "click_element", "index": indices[-1] + 1}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(click, form)
    click["action"][0]["index"] = indices[-1]
    jsonschema.validate(click, form)


async def test_json_schema_leaves_out_an_element_action_already_sent_on_the_same_page(
    session: BrowserSession, server: LocalServer
) -> None:
    """Typing the same name again into a field that holds it leaves the page as it was: the next step's
    grammar has no ``input_text`` into that field (other fields, and other actions on it, stay)."""
    import jsonschema

    await session.page.goto(server.url("agent/login.html"))
    user, password = await _index(session, "Username"), await _index(session, "Password")
    typed = {"action": "input_text", "index": user, "text": "ada"}
    script = [
        {"current_state": brain("type"), "action": [typed]},
        {"current_state": brain("type again"), "action": [typed]},
        {"current_state": brain("stop"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    with FakeOpenAI(script) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent(
            "Fill in the username", local_llm(fake), browser=session, settings=settings
        ).run(4)
    assert history.final_result() == "ok" and fake.schema_errors == []
    empty, filled, again = (r["response_format"]["json_schema"]["schema"] for r in fake.requests)

    def indices(schema: dict[str, Any], action: str) -> list[int]:
        branches = schema["properties"]["action"]["items"]["anyOf"]
        branch = next(b for b in branches if b["properties"]["action"]["enum"] == [action])
        found: list[int] = branch["properties"]["index"]["enum"]
        return found

    assert user in indices(empty, "input_text") and user in indices(filled, "input_text"), (
        "the field's value changed after the first typing: the second is no repeat"
    )
    assert user not in indices(again, "input_text") and password in indices(again, "input_text")
    assert user in indices(again, "click_element")
    step = {"current_state": {**brain("x"), "evaluation_previous_goal": "Success"}, "action": [typed]}
    jsonschema.validate(step, filled)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(step, again)


def test_openai_hosted_gets_the_same_schema_every_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """OpenAI's prompt cache starts with the response_format schema: no per-page indices there."""
    from langchain_openai import ChatOpenAI

    from browser_agent.controller.reply import build_output_model
    from browser_agent.llm.methods import PromptShape, prepare

    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    output = build_output_model(Controller().action_union(), 3)
    shape = PromptShape(indices=(0, 1))

    def index_schema(llm: Any) -> Any:
        schema = prepare(llm, output, "json_schema", shape).runnable.kwargs["response_format"]  # type: ignore[attr-defined]
        branches = schema["json_schema"]["schema"]["properties"]["action"]["items"]["anyOf"]
        return next(
            b["properties"]["index"] for b in branches if b["properties"]["action"]["enum"] == ["hover"]
        )

    assert index_schema(ChatOpenAI(api_key="sk-test", model="gpt-4o")) == {"type": "integer"}
    local = ChatOpenAI(api_key="local", model="local", base_url="http://127.0.0.1:9/v1")
    assert index_schema(local) == {"type": "integer", "enum": [0, 1]}


def _pinned_evaluation(request: dict[str, Any]) -> list[str] | None:
    """The evaluation a ``json_schema`` request's grammar writes for the model (None: the model's own)."""
    schema = request["response_format"]["json_schema"]["schema"]
    enum: list[str] | None = schema["properties"]["current_state"]["properties"][
        "evaluation_previous_goal"
    ].get("enum")
    return enum


def _offered_indices(request: dict[str, Any], action: str) -> list[int] | None:
    """The element indices a request's grammar offers ``action`` on (None: the action is left out)."""
    branches = request["response_format"]["json_schema"]["schema"]["properties"]["action"]["items"]["anyOf"]
    found = [
        b["properties"]["index"]["enum"] for b in branches if b["properties"]["action"]["enum"] == [action]
    ]
    return found[0] if found else None


async def test_the_evaluation_is_pinned_to_what_the_last_actions_did(
    session: BrowserSession, server: LocalServer
) -> None:
    """A small model judged "Failed" after actions that worked, and acted on it: the grammar writes
    "Success" or "Failed" from the last step's outcome; a step whose reply was unusable leaves it free."""
    replies = [
        {
            "current_state": brain("open"),
            "action": [{"action": "go_to_url", "url": server.url("basic.html")}],
        },
        {"current_state": brain("close"), "action": [{"action": "close_tab", "tab_id": 7}]},
        "not JSON at all",
        {"current_state": brain("report"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    with FakeOpenAI(replies) as fake:
        settings = AgentSettings(tool_calling_method="json_schema", max_corrections=0, max_failures=5)
        history = await Agent("Look", local_llm(fake), browser=session, settings=settings).run(5)
    assert history.final_result() == "ok"
    pinned = [_pinned_evaluation(r) for r in fake.requests]
    assert pinned == [[FIRST_EVALUATION], ["Success"], ["Failed"], None]
    evaluations = [
        s.model_output.current_state.evaluation_previous_goal for s in history.steps if s.model_output
    ]
    assert evaluations == [FIRST_EVALUATION, "Success", "Unknown"]


async def test_an_action_held_back_is_offered_again_and_no_repeat_is_warned_of(
    session: BrowserSession, server: LocalServer
) -> None:
    """A hold (a check on the model's choice kept the action back once) ran nothing: the next grammar
    still offers the action held back (the hold asks for it again, or for another text in the same
    field), and no repeat is warned of. Left out as spent, a held ``input_text`` into field 0 kept the
    1.5B model from typing the word the hold named."""
    page = server.url("controller/headline_quiz.html")
    replies = [
        {"current_state": brain("open"), "action": [{"action": "go_to_url", "url": page}]},
        {"current_state": brain("type"), "action": [{"action": "input_text", "index": 0, "text": "a storm"}]},
        {"current_state": brain("report"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    task = "Type the last word of the headline into the answer box."
    with FakeOpenAI(replies) as fake:
        settings = AgentSettings(tool_calling_method="json_schema", max_corrections=0)
        history = await Agent(task, local_llm(fake), browser=session, settings=settings).run(4)
    assert history.final_result() == "ok"
    pinned = [_pinned_evaluation(r) for r in fake.requests]
    assert pinned == [[FIRST_EVALUATION], ["Success"], ["Failed"]]
    last_request = json.dumps(fake.requests[-1]["messages"])
    assert "input_text failed: Not typed into element 0: the task asks for one word" in last_request
    assert history.steps[1].results[0].held
    assert await session.page.input_value("#answer") == ""
    # nothing ran: typing into field 0 is offered again (the hold asks for it), and no repeat is warned of
    assert _offered_indices(fake.requests[-1], "input_text") == [0]
    assert "You sent exactly these actions" not in last_request


async def test_a_click_held_back_for_another_element_stays_spent(
    session: BrowserSession, server: LocalServer
) -> None:
    """A hold that names another element (the button the task quotes) keeps the held click out of the
    next grammar, as any lone action that left the page as it was: offered again, the 1.5B model clicked
    the held element again (search-engine 0 and 5, login-user-popup 1)."""
    page = server.url("controller/cookie_banner.html")
    await session.navigate(page)
    state = await session.state()
    assert state.snapshot is not None
    names = {n.name or n.text: i for i, n in state.snapshot.selector_map.items()}
    wrong = names["Accept all"]
    replies = [
        {"current_state": brain("accept"), "action": [{"action": "click_element", "index": wrong}]},
        {"current_state": brain("again"), "action": [{"action": "click_element", "index": names["Accept"]}]},
        {"current_state": brain("report"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    with FakeOpenAI(replies) as fake:
        settings = AgentSettings(tool_calling_method="json_schema", max_corrections=0)
        history = await Agent(
            'Click "Accept" on the cookie banner.', local_llm(fake), browser=session, settings=settings
        ).run(4)
    assert history.final_result() == "ok" and history.steps[0].results[0].held
    assert await session.page.text_content("#said") == "Chose needed cookies only"
    offered = _offered_indices(fake.requests[1], "click_element")
    assert wrong not in offered and names["Accept"] in offered, offered


async def test_json_schema_leaves_out_an_extraction_or_wait_that_left_the_page_as_it_was(
    session: BrowserSession, server: LocalServer
) -> None:
    """A small model asked the same extraction again and again, the answer already in its log: after it
    left the page as it was, the next grammar does not offer it (nor a wait); ``done`` always stays."""
    script = [
        {"current_state": brain("read"), "action": [{"action": "extract_content", "goal": "the code"}]},
        {"current_state": brain("wait"), "action": [{"action": "wait", "seconds": 0.1}]},
        {"current_state": brain("stop"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    await session.page.goto(server.url("agent/code.html"))
    with FakeOpenAI(script) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("Read it", local_llm(fake), browser=session, settings=settings).run(4)
    assert history.final_result() == "ok" and fake.schema_errors == []

    def offered(request: dict[str, Any]) -> set[str]:
        branches = request["response_format"]["json_schema"]["schema"]["properties"]["action"]["items"][
            "anyOf"
        ]
        return {b["properties"]["action"]["enum"][0] for b in branches}

    first, second, third = (offered(r) for r in fake.requests)
    assert {"extract_content", "wait", "done"} <= first
    assert "extract_content" not in second and {"wait", "done"} <= second
    assert not {"extract_content", "wait"} & third and "done" in third


OPENING = '{"current_state": {"evaluation_previous_goal": "%s", "memory": "'


async def test_a_llama_cpp_server_is_sent_the_replys_opening_and_goes_on_from_it(
    session: BrowserSession, server: LocalServer
) -> None:
    with FakeOpenAI(answers(server), llama_cpp=True) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(3)
    assert history.final_result() == "XK-42" and fake.schema_errors == []
    begun = [r["messages"][-1] for r in fake.requests]
    assert begun == [
        {"role": "assistant", "content": OPENING % FIRST_EVALUATION},
        {"role": "assistant", "content": OPENING % "Success"},
    ]
    output = history.steps[1].model_output
    assert output is not None and output.current_state.memory == "report"


async def test_a_server_that_answers_anew_is_not_sent_an_opening_again(
    session: BrowserSession, server: LocalServer
) -> None:
    with FakeOpenAI(answers(server), compact=True) as fake:
        settings = AgentSettings(tool_calling_method="json_schema", prefill_reply=True)
        history = await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(3)
    assert history.final_result() == "XK-42"
    first, second = (r["messages"][-1] for r in fake.requests)
    assert first == {"role": "assistant", "content": OPENING % FIRST_EVALUATION}
    assert second["role"] == "user", "the server did not go on from the first: the second asks as before"


async def test_other_servers_are_sent_no_opening_unless_asked(
    session: BrowserSession, server: LocalServer
) -> None:
    with FakeOpenAI(answers(server)) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        await Agent("Read the code", local_llm(fake), browser=session, settings=settings).run(3)
    assert [r["messages"][-1]["role"] for r in fake.requests] == ["user", "user"]


async def test_json_schema_admits_typing_only_into_what_takes_text(
    session: BrowserSession, server: LocalServer
) -> None:
    """Buttons, links, lists and checkboxes are no ``input_text`` index (a small model typed its answer
    into a link, its Submit into the button), and buttons, links and checkboxes no list to choose in; a
    page with only a link offers neither."""
    await session.page.goto(server.url("agent/feedback.html"))
    fields = [await _index(session, "Comments"), await _index(session, "Rating")]
    topic = await _index(session, "Topic")
    script = [
        {
            "current_state": brain("on"),
            "action": [{"action": "go_to_url", "url": server.url("agent/links.html")}],
        },
        {"current_state": brain("end"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    with FakeOpenAI(script) as fake:
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("Look around", local_llm(fake), browser=session, settings=settings).run(3)
    assert history.final_result() == "ok" and fake.schema_errors == []
    form, links = (r["response_format"]["json_schema"]["schema"] for r in fake.requests)

    def branch(schema: dict[str, Any], action: str) -> dict[str, Any] | None:
        branches = schema["properties"]["action"]["items"]["anyOf"]
        return next((b for b in branches if b["properties"]["action"]["enum"] == [action]), None)

    typed = branch(form, "input_text")
    clicked = branch(form, "click_element")
    assert typed is not None and clicked is not None
    assert sorted(typed["properties"]["index"]["enum"]) == sorted(fields)
    assert len(clicked["properties"]["index"]["enum"]) == 7, "a click may go to any element"
    chosen = branch(form, "select_dropdown_option")
    assert chosen is not None, "a list, and what may hold one (a field), can be chosen in"
    assert sorted(chosen["properties"]["index"]["enum"]) == sorted([*fields, topic])
    assert branch(links, "input_text") is None and branch(links, "click_element") is not None
    assert branch(links, "select_dropdown_option") is None and branch(links, "get_dropdown_options") is None
