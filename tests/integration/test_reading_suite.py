"""The reading suite (benchmarks/suites/reading-*.jsonl): questions on saved real pages whose answers are
printed there, judged by the text of ``done``. Known answerable and judged right: an agent that answers
correctly passes every task, and each answer is on the page it starts on; one that does not, fails."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from playwright.async_api import Browser

from browser_agent.eval import EvalOptions, StaticSite, SuiteEpisode, read_suite, run_episodes
from browser_agent.eval.suite import Check, SuiteTask
from browser_agent.testing import ScriptedChatModel

ROOT = Path(__file__).resolve().parents[2]
HALVES = [ROOT / "benchmarks" / "suites" / f"reading-{half}.jsonl" for half in ("development", "held-out")]
# The corpus beside the repository (../shared, or ../../shared from a worktree), or where it is said.
CORPUS_PLACES = [Path(os.environ.get("BROWSER_AGENT_CORPUS", "/nonexistent"))] + [
    parent / "shared" / "corpus" / "realpages" for parent in ROOT.parents[:2]
]
CORPUS = next((place for place in CORPUS_PLACES if place.is_dir()), None)


def _tasks(site: str = "http://127.0.0.1:1") -> list[list[SuiteTask]]:
    return [read_suite(path, site=site) for path in HALVES]


def _answers(task: SuiteTask) -> list[str]:
    return [str(c.value) for c in task.checks if c.kind == "answer_contains"]


def test_two_halves_of_ten_questions_split_by_page_each_judged_by_the_answer() -> None:
    development, held_out = _tasks()
    assert len(development) == len(held_out) == 10
    assert not {t.family for t in development} & {t.family for t in held_out}  # a page is in one half
    everything = development + held_out
    assert len({t.id for t in everything}) == len(everything)
    for task in everything:
        assert task.checks and all(c.kind == "answer_contains" for c in task.checks)
        assert task.start_url == f"http://127.0.0.1:1/{task.family}/"
        assert task.allowed_domains == ("http://127.0.0.1:*",)


def _answering(tasks: list[SuiteTask], right: bool) -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """A policy that answers each task's question at once: with its answer, or with a wrong one."""
    answers = {task.task: " ".join(_answers(task)) for task in tasks}

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        asked = next(str(m.content) for m in messages if str(m.content).startswith("Your task: "))
        answer = answers[asked.removeprefix("Your task: ")] if right else "The page does not say."
        brain = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "answer"}
        return {"current_state": brain, "action": [{"action": "done", "text": answer, "success": True}]}

    return policy


@pytest.mark.skipif(CORPUS is None, reason="the real-page corpus (../shared/corpus/realpages) is not here")
@pytest.mark.timeout(300)
async def test_the_right_answers_pass_and_are_printed_on_the_page_and_a_wrong_one_fails(
    tmp_path: Path, browser: Browser
) -> None:
    assert CORPUS is not None
    with StaticSite(CORPUS) as site:
        tasks = [task for half in _tasks(site.origin) for task in half]
        # Each answer also on the page the episode starts on (where an agent that only answers stays).
        printed = [
            task.model_copy(
                update={"checks": (*task.checks, *(Check(kind="text", value=a) for a in _answers(task)))}
            )
            for task in tasks
        ]
        options = EvalOptions(max_steps=2)
        right = await run_episodes(
            [SuiteEpisode(t) for t in printed],
            ScriptedChatModel(policy=_answering(tasks, right=True)),
            tmp_path / "right.jsonl",
            options,
            concurrency=3,
            browser=browser,
        )
        wrong = await run_episodes(
            [SuiteEpisode(t) for t in tasks[:2]],
            ScriptedChatModel(policy=_answering(tasks, right=False)),
            tmp_path / "wrong.jsonl",
            options,
            concurrency=3,
            browser=browser,
        )
    failed = [(r.task, r.detail) for r in right if not r.success]
    assert not failed
    assert len(right) == 20
    assert [r.success for r in wrong] == [False, False]
    assert all(r.failure == "wrong answer" for r in wrong)
