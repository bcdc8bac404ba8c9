"""``browser-agent eval miniwob`` end to end: MiniWoB++'s own task pages on 127.0.0.1, a real provider
package against a stand-in OpenAI server answering as a policy that solves the tasks, each episode judged
by the page's own reward; the JSONL, the HTML report, and a second run that only does what is missing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage

from browser_agent.cli import main, main_async
from browser_agent.eval import EvalOptions, MiniwobEpisode, StaticSite, miniwob_folder, run_episodes
from browser_agent.eval.miniwob import family_of
from browser_agent.testing import ScriptedChatModel
from tests.support.fake_openai import FakeOpenAI
from tests.support.miniwob_policy import click_wrong_button, solve

pytest.importorskip("langchain_openai")
pytest.importorskip("miniwob")


class Wire:
    """A scripted policy over the OpenAI wire format; keeps the goal of each request it answered."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.goals: list[str] = []

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        messages: list[BaseMessage] = [
            HumanMessage(content=m["content"]) for m in body["messages"] if isinstance(m["content"], str)
        ]
        self.goals.append(next(str(m.content) for m in messages if "Current URL:" in str(m.content)))
        reply: dict[str, Any] = self.policy(messages)
        return reply


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(240)
async def test_eval_miniwob_writes_records_and_report_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, report, histories = tmp_path / "runs.jsonl", tmp_path / "runs.html", tmp_path / "histories"
    policy = Wire(solve)
    with FakeOpenAI(policy, prefix_cache=True) as fake:
        args = [
            "eval",
            "miniwob",
            "--tasks",
            "click-button,enter-text,focus-text",
            "--seeds",
            "0,1",
            "--model",
            "openai:local",
            "--base-url",
            fake.base_url,
            "--tool-calling-method",
            "json_schema",
            "--out",
            str(out),
            "--report",
            str(report),
            "--histories",
            str(histories),
            "--concurrency",
            "2",
            "--max-steps",
            "4",
        ]
        assert await main_async(args) == 0, capsys.readouterr().err
        assert fake.schema_errors == []
        records = _lines(out)
        assert sorted((r["task"], r["seed"]) for r in records) == [
            (task, seed) for task in ("click-button", "enter-text", "focus-text") for seed in (0, 1)
        ]
        for record in records:
            assert record["success"] is True and record["reward"] == 1.0 and record["failure"] == "none"
            assert record["family"] == {"click-button": "click"}.get(record["task"], "text"), record
            assert record["model"] == "openai:local"
            assert record["steps"] == 1 and record["model_calls"] == 1, record
            assert record["input_tokens"] > 200 and record["output_tokens"] > 0, "the server's usage"
            assert record["seconds"] > 0 and Path(record["history"]).is_file()
        assert any(r["cached_input_tokens"] > 0 for r in records), "the server's reused prefix is counted"
        enter = next(r for r in records if r["task"] == "enter-text" and r["seed"] == 0)
        assert re.fullmatch(r'Enter "\w+" into the text field and press Submit\.', enter["goal"]), enter
        page = report.read_text()
        assert "<b>6 of 6</b> episodes succeeded" in page and "<svg" in page and "<script" not in page
        for task in ("click-button", "enter-text", "focus-text"):
            kind = family_of(task)
            assert f"<td>{task}</td><td>{kind}</td><td class=n>2/2</td>" in page
        err = capsys.readouterr().err
        assert "total: 6/6 (100%" in err and "success click-button seed" in err

        asked = len(fake.requests)
        assert await main_async([*args[:4], "--seeds", "0,1,2", *args[6:]]) == 0
        assert len(fake.requests) == asked + 3, "only the three new episodes asked the model"
        assert sorted(r["seed"] for r in _lines(out)) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
        assert "<b>9 of 9</b>" in report.read_text()
        assert await main_async(args) == 0 and len(fake.requests) == asked + 3, "nothing left: nothing is run"
        assert "already in" in capsys.readouterr().err


@pytest.mark.timeout(120)
async def test_a_wrong_click_is_judged_by_the_page_as_a_wrong_answer(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    with StaticSite(miniwob_folder()) as site:
        episodes = [MiniwobEpisode("click-button", 0, site.origin, family="easy")]
        model = ScriptedChatModel(policy=click_wrong_button)
        [record] = await run_episodes(episodes, model, out, EvalOptions(max_steps=4))
    assert record.success is False and record.reward == -1.0 and record.failure == "wrong answer"
    assert record.steps == 1, "the run stops at the step that ended the episode"
    assert record.detail == "reward -1"
    assert [json.loads(line)["reward"] for line in out.read_text().splitlines()] == [-1.0]


def test_unknown_tasks_and_families_are_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--model", "openai:local", "--base-url", "http://127.0.0.1:9/v1", "--out", str(tmp_path / "o")]
    assert main(["eval", "miniwob", "--tasks", "click-buton", *common]) == 2
    assert "Unknown MiniWoB++ task 'click-buton'; did you mean click-button" in capsys.readouterr().err
    assert main(["eval", "miniwob", "--families", "hard", *common]) == 2
    families = "development, held-out, click, text, widgets, reading, easy, easy-2"
    assert f"Unknown MiniWoB++ family 'hard'; the families are {families}" in capsys.readouterr().err
    assert main(["eval", "miniwob", "--tasks", "click-button", "--seeds", "a", *common]) == 2
    assert "--seeds 'a': give whole numbers" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
