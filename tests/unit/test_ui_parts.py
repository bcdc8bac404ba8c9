"""The UI's parts without a browser: the token guard, the form, take-over notes, questions, past runs."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from browser_agent.agent import AgentSettings
from browser_agent.agent.conversation import Conversation
from browser_agent.browser import BrowserConfig
from browser_agent.controller import Controller
from browser_agent.errors import UserError
from browser_agent.record import AgentHistory
from browser_agent.sensitive import Secrets
from browser_agent.ui.ask_human import ASK_HUMAN, HumanChannel, with_ask_human
from browser_agent.ui.auth import TokenGuard
from browser_agent.ui.launch import RunForm, RunSetup, _chosen, _fence, run_settings, secret_names
from browser_agent.ui.saved_runs import history_path, list_runs
from browser_agent.ui.takeover import InputEvent, TakeoverLog
from browser_agent.ui.viewers import Hub, Viewer

TOKEN = "t0ken-for-tests"


async def _app(scope: Any, receive: Any, send: Any) -> None:  # never reached by a refused request
    raise AssertionError("passed the guard")


def _scope(kind: str = "http", *, token: str | None = TOKEN, **headers: str) -> dict[str, Any]:
    sent = {"host": "127.0.0.1:8123"} | headers
    return {
        "type": kind,
        "headers": [(k.encode(), v.encode()) for k, v in sent.items()],
        "query_string": f"token={token}".encode() if token is not None else b"",
    }


def test_the_guard_wants_the_token_the_loopback_host_and_the_ui_s_own_origin() -> None:
    guard = TokenGuard(_app, TOKEN, lambda: 8123)
    assert guard.refusal(_scope()) is None
    assert guard.refusal(_scope(token=None, **{"x-token": TOKEN})) is None
    assert guard.refusal(_scope(origin="http://127.0.0.1:8123")) is None
    assert guard.refusal(_scope("websocket", origin="http://localhost:8123", host="localhost:8123")) is None
    assert guard.refusal(_scope(token=None)) == "missing or wrong token"
    assert guard.refusal(_scope(token=TOKEN + "x")) == "missing or wrong token"
    assert guard.refusal(_scope(host="evil.example:8123")) == "unknown host"
    assert guard.refusal(_scope(host="127.0.0.1:9999")) == "unknown host"
    assert guard.refusal(_scope(origin="http://evil.example")) == "cross-origin request"
    assert guard.refusal(_scope(origin="http://127.0.0.1:9999")) == "cross-origin request"
    assert guard.refusal(_scope("websocket")) == "a WebSocket without an Origin"


async def test_a_refused_request_is_answered_403_with_the_safety_headers() -> None:
    sent: list[dict[str, Any]] = []

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request"}

    await TokenGuard(_app, TOKEN, lambda: 8123)(_scope(token="nope"), receive, send)
    assert sent[0]["status"] == 403
    assert (b"referrer-policy", b"no-referrer") in sent[0]["headers"]
    assert TOKEN.encode() not in sent[1]["body"]


def test_the_form_is_checked_field_by_field() -> None:
    form = RunForm.parse({"task": "Find the mug", "start_url": "http://127.0.0.1:1/", "max_steps": 5})
    assert form.max_steps == 5 and not form.vision
    for bad, field in (
        ({"task": ""}, "task"),
        ({"task": "x", "start_url": "file:///etc/passwd"}, "start_url"),
        ({"task": "x", "max_steps": 0}, "max_steps"),
        ({"task": "x", "model": "openai:gpt-4o"}, "model"),  # the model is the server's choice
    ):
        with pytest.raises(UserError, match=field):
            RunForm.parse(bad)


def test_the_form_s_step_timeout_wins_over_the_server_s_and_leaves_room_for_an_answer(tmp_path: Path) -> None:
    from browser_agent.agent import AgentSettings

    setup = RunSetup(model=lambda: None, runs_dir=tmp_path, settings=AgentSettings(step_timeout_s=200))  # type: ignore[arg-type,return-value]
    path = tmp_path / "h.json"
    assert run_settings(RunForm(task="t"), setup, path, answer_s=30).step_timeout_s == 200
    assert run_settings(RunForm(task="t", step_timeout_s=600), setup, path, answer_s=30).step_timeout_s == 600
    assert run_settings(RunForm(task="t", step_timeout_s=10), setup, path, answer_s=300).step_timeout_s == 360
    for bad in (0, -5, 10_000):
        with pytest.raises(UserError, match="step_timeout_s"):
            RunForm.parse({"task": "t", "step_timeout_s": bad})


def test_a_run_s_fence_stays_inside_the_server_s(tmp_path: Path) -> None:
    def form(*domains: str) -> RunForm:
        return RunForm(task="x", allowed_domains=list(domains))

    def setup(outer: tuple[str, ...] | None, **more: Any) -> RunSetup:
        return RunSetup(model=lambda: None, runs_dir=tmp_path, allowed_domains=outer, **more)  # type: ignore[arg-type,return-value]

    assert _fence(form(), setup(None)) is None
    assert _fence(form("example.com"), setup(None)) == ("example.com",)
    assert _fence(form(), setup(("*.example.com",))) == ("*.example.com",)
    assert _fence(form("a.test"), setup(("a.test", "b.test"))) == ("a.test",)
    assert _fence(form("*.a.test"), setup(("a.test", "b.test"))) == ("*.a.test",)  # within a.test
    for wider in ("evil.example", "*.test", "*", "a.test:*x"):
        with pytest.raises(UserError, match=r"is not within the server's fence \['a.test', 'b.test'\]"):
            _fence(form(wider), setup(("a.test", "b.test")))
    # the server's browser and agent settings bound a run as its fence does
    browser = BrowserConfig(allowed_domains=("a.test",))
    assert _fence(form(), setup(None, browser=browser)) == ("a.test",)
    with pytest.raises(UserError, match="is not within the server's browser fence"):
        _fence(form("b.test"), setup(None, browser=browser))
    settings = AgentSettings(allowed_domains=("b.test",))
    assert _fence(form(), setup(("a.test", "b.test"), settings=settings)) == ("b.test",)


def test_secrets_are_chosen_by_name_and_only_names_are_listed() -> None:
    data: dict[str, Any] = {"pw": "long-password-1", "example.com": {"card": "4111-1111-1111"}}
    assert secret_names(data) == ["card", "pw"]
    assert _chosen(data, ["card"]) == {"example.com": {"card": "4111-1111-1111"}}
    assert _chosen(data, []) == {}
    with pytest.raises(UserError, match="Unknown secrets"):
        _chosen(data, ["token"])


def test_take_over_is_told_in_words_without_what_was_typed() -> None:
    log = TakeoverLog(start_url="http://a.test/login")
    assert log.note("http://a.test/login") is None
    log.add('clicked <button> "Sign in" at (10, 20)')
    log.add("typed 5 characters")
    log.add("typed 3 characters")
    log.add("pressed Enter")
    note = log.note("http://a.test/home")
    assert note is not None
    assert 'clicked <button> "Sign in" at (10, 20); typed 8 characters; pressed Enter.' in note
    assert "went from http://a.test/login to http://a.test/home" in note


def test_each_run_of_typing_is_kept_apart_with_its_page() -> None:
    log = TakeoverLog(start_url="http://a.test/login")
    log.type("HumanPW", "http://a.test/login")
    log.type("-4711x", "http://a.test/login")
    log.erase()  # Backspace: the last character is gone from the field
    assert log.take_typed() == [], "the run of typing goes on"
    log.end_typing()  # any other input (a click, a key, a scroll) ends it
    log.type("ada", "http://b.test/")
    assert log.take_typed() == [("HumanPW-4711", "http://a.test/login")]
    assert log.take_typed(finish=True) == [("ada", "http://b.test/")]
    assert log.take_typed(finish=True) == []


def test_input_events_are_checked() -> None:
    assert InputEvent.parse({"kind": "click", "x": 10, "y": 20}).x == 10
    with pytest.raises(UserError, match="not forwarded"):
        InputEvent.parse({"kind": "key", "key": "F12"})
    with pytest.raises(UserError, match="Not an input event"):
        InputEvent.parse({"kind": "drag"})
    with pytest.raises(UserError, match="Not an input event"):
        InputEvent.parse({"kind": "click", "x": -5})


def test_a_note_reaches_the_conversation_redacted() -> None:
    secrets = Secrets({"pw": "hunter2-very-secret"})
    talk = Conversation("task", max_actions=3, max_input_tokens=10_000, secrets=secrets)
    talk.add_note("the person typed hunter2-very-secret")
    assert talk.memos[-1].text == "Note: the person typed <secret>pw</secret>"
    assert "Note: the person typed" in str(talk.build("state")[2].content)


async def test_a_question_waits_for_its_answer_or_times_out() -> None:
    events: list[dict[str, Any]] = []
    channel = HumanChannel(events.append, timeout_s=5)
    asking = asyncio.create_task(channel.ask("Which colour?", 5))
    await asyncio.sleep(0)
    assert events[-1] == {"type": "question", "id": 1, "question": "Which colour?", "timeout_s": 5}
    with pytest.raises(UserError, match="not waiting"):
        channel.answer(2, "red")
    channel.answer(1, "teal")
    assert await asking == "teal"
    assert events[-1] == {"type": "question_closed", "id": 1}
    assert await channel.ask("Still there?", 0.05) is None
    with pytest.raises(UserError, match="not waiting"):
        channel.answer(2, "late")


def test_ask_human_is_added_to_a_copy_only() -> None:
    base = Controller()
    channel = HumanChannel(lambda event: None)
    with_human = with_ask_human(base, channel)
    assert ASK_HUMAN in with_human.registry and ASK_HUMAN not in base.registry
    assert ASK_HUMAN in with_human.describe_actions()
    with pytest.raises(UserError, match="already has"):
        with_ask_human(with_human, channel)


def test_a_late_viewer_gets_the_backlog_and_only_the_newest_frame() -> None:
    seen: list[bool] = []
    hub = Hub(on_watchers=seen.append)
    hub.publish({"type": "step_start", "step": 1})
    hub.show({"type": "frame", "n": 1})
    hub.show({"type": "frame", "n": 2})
    viewer = hub.connect()
    assert seen == [True]
    batch = asyncio.run(viewer.next_batch())
    assert [e.get("step", e.get("n")) for e in batch] == [1, 2]
    hub.disconnect(viewer)
    assert seen == [True, False]


def test_past_runs_are_read_from_the_folder_only(tmp_path: Path) -> None:
    AgentHistory(task="Find the mug").save(tmp_path / "run-1.json")
    (tmp_path / "notes.json").write_text("not a history")
    listed = {r["name"]: r for r in list_runs(tmp_path)}
    assert listed["run-1.json"]["task"] == "Find the mug"
    assert listed["notes.json"]["unreadable"]
    assert history_path(tmp_path, "run-1.json") == tmp_path / "run-1.json"
    for name in ("../run-1.json", "run-1.txt", ".hidden.json", "missing.json", "a/b.json"):
        with pytest.raises(UserError):
            history_path(tmp_path, name)


def test_a_viewer_gets_events_together_at_most_every_gap_and_frames_at_once() -> None:
    async def scenario() -> list[list[Any]]:
        viewer = Viewer()
        viewer.push({"type": "step_start", "step": 1})
        first = await viewer.next_batch(gap=0.3)
        viewer.push({"type": "phase", "step": 1})
        viewer.push({"type": "step_end", "step": 1})
        viewer.show({"type": "frame", "n": 1})
        started = time.monotonic()
        frame_only = await viewer.next_batch(gap=0.3)  # the frame at once; the events wait for the gap
        assert time.monotonic() - started < 0.1
        events = await viewer.next_batch(gap=0.3)
        assert time.monotonic() - started >= 0.25
        return [[e.get("step", e.get("n")) for e in b] for b in (first, frame_only, events)] + [
            [e["type"] for e in events]
        ]

    assert asyncio.run(scenario()) == [[1], [1], [1, 1], ["phase", "step_end"]]
