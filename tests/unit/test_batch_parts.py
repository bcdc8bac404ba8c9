"""The batch package's pure parts: task specs and task files, secrets, arguments, the Ray extra missing."""

from __future__ import annotations

import asyncio
import io
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from browser_agent import AgentHistory, BrowserConfig, UserError
from browser_agent.batch import LocalExecutor, RayExecutor, TaskOutcome, TaskSpec, read_specs
from browser_agent.batch.options import BatchOptions, BatchSetup, browser_sources, make_llm
from browser_agent.batch.spec import as_specs
from browser_agent.batch.task_run import history_file
from browser_agent.browser.launch import server_launch_headers
from browser_agent.cli import main
from browser_agent.cli.batch import finished_ids
from browser_agent.eval import EpisodeRecord
from browser_agent.extras import install_hint
from browser_agent.output.progress import BATCH, EVAL, RunProgress, Words
from browser_agent.testing import ScriptedChatModel


def test_task_strings_become_specs_with_ids_counted_from_one() -> None:
    specs = as_specs(["first", TaskSpec(task="second", id="mine"), "third"])
    assert [(s.task, s.task_id) for s in specs] == [
        ("first", "task-1"),
        ("second", "mine"),
        ("third", "task-3"),
    ]


def test_a_task_file_reads_strings_and_objects_and_names_tasks_by_line(tmp_path: Path) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text(
        '"just a task"\n\n{"id": "b", "task": "Find it", "start_url": "http://127.0.0.1/", "max_steps": 3}\n'
    )
    first, second = read_specs(path)
    assert (first.task_id, first.task) == ("line-1", "just a task")
    assert (second.task_id, second.start_url, second.max_steps) == ("b", "http://127.0.0.1/", 3)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"task": "ok"}\n{"tsk": "typo"}\n', "line 2: not a task"),
        ("not json\n", "line 1, is not JSON"),
        ('{"id": "a", "task": "x"}\n{"id": "a", "task": "y"}\n', "share the id 'a'"),
        ("\n\n", "holds no task"),
        ('{"task": "x", "judge": {"open": "() => 1"}}\n', "line 1: not a task \\(judge: Input should be"),
    ],
)
def test_a_bad_task_file_says_which_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "tasks.jsonl"
    path.write_text(content)
    with pytest.raises(UserError, match=message):
        read_specs(path)


def test_secrets_are_hidden_in_repr_and_read_from_the_environment_where_the_agent_runs() -> None:
    spec = TaskSpec(task="t", id="x", sensitive_data={"pw": "hunter2"}, sensitive_env={"token": "API_TOKEN"})
    assert "hunter2" not in repr(spec) and "hunter2" not in spec.model_dump_json()
    assert spec.secrets({"API_TOKEN": "tok"}) == {"pw": "hunter2", "token": "tok"}
    with pytest.raises(UserError, match="environment variable API_TOKEN, which is not set"):
        spec.secrets({})


def test_history_files_are_named_after_task_ids_made_safe(tmp_path: Path) -> None:
    assert history_file(tmp_path, "shop/check 1") == tmp_path / "shop_check_1.json"
    assert history_file(tmp_path, "..") == tmp_path / "task.json"


def test_an_outcome_summary_is_one_flat_record(tmp_path: Path) -> None:
    history = AgentHistory.model_validate(
        {
            "task": "t",
            "steps": [
                {
                    "step": 1,
                    "results": [{"is_done": True, "success": True, "extracted_content": "42"}],
                    "usage": {"input_tokens": 900, "output_tokens": 30, "cached_input_tokens": 700},
                },
            ],
        }
    )
    outcome = TaskOutcome(0, "a", history, 1.23456, "local Chromium", tmp_path / "a.json")
    assert outcome.success
    assert outcome.summary() == {
        "id": "a",
        "success": True,
        "result": "42",
        "error": None,
        "steps": 1,
        "seconds": 1.235,
        "input_tokens": 900,
        "cached_input_tokens": 700,
        "output_tokens": 30,
        "endpoint": "local Chromium",
        "history": str(tmp_path / "a.json"),
    }
    history.error = "BrowserError: lost"
    assert not outcome.success


@pytest.mark.parametrize(
    ("steps", "end_reason", "error"),
    [
        (
            [{"step": 1, "error": "ModelError: The chat model call failed (AuthenticationError: 401)."}] * 2,
            "max_steps",
            "not done after 2 steps (max_steps); last error: ModelError: The chat model call failed "
            "(AuthenticationError: 401).",
        ),
        (
            [{"step": 1, "results": [{"is_done": True, "success": False, "extracted_content": "sold out"}]}],
            "done",
            "done with success=false: sold out",
        ),
        (
            [{"step": 0, "results": [{"action": "go_to_url", "error": "NavigationError: refused\nmore"}]}],
            "max_failures",
            "too many failed steps in a row; last error: NavigationError: refused",
        ),
        ([], None, "ended without being done"),
    ],
)
def test_a_failed_task_always_says_why(
    steps: list[dict[str, Any]], end_reason: str | None, error: str
) -> None:
    history = AgentHistory.model_validate({"task": "t", "steps": steps, "end_reason": end_reason})
    outcome = TaskOutcome(0, "a", history, 1.0)
    assert not outcome.success and history.error is None
    assert outcome.error == error and outcome.summary()["error"] == error
    history.error = "AgentRunError: cannot reach http://127.0.0.1:9/v1/chat/completions: connection refused"
    assert outcome.summary()["error"] == history.error, "what ended the run early comes first"


def test_finished_ids_skip_a_line_cut_short(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    out.write_text(json.dumps({"id": "a"}) + "\n" + '{"id": "b", "succ')
    assert finished_ids(out) == {"a"}
    assert finished_ids(tmp_path / "none.jsonl") == set()


def test_llm_and_browser_arguments_are_checked() -> None:
    model = ScriptedChatModel(replies=["x"])
    assert make_llm(model) is model and make_llm(lambda: model) is model
    with pytest.raises(UserError, match="a langchain chat model or a function returning one"):
        make_llm(lambda: "not a model")  # type: ignore[arg-type, return-value]
    assert browser_sources(None) == (BrowserConfig(),)
    with pytest.raises(UserError, match="names no browser"):
        browser_sources([])
    with pytest.raises(UserError, match="got a str"):
        browser_sources(["ws://127.0.0.1:3000/"])  # type: ignore[list-item]


def test_a_bad_model_factory_stops_the_local_executor_before_it_makes_a_scratch_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where TemporaryDirectory would make it
    setup = BatchSetup((BrowserConfig(),), lambda: "not a model", BatchOptions(), 1)  # type: ignore[arg-type, return-value]
    with pytest.raises(UserError, match="a langchain chat model"):
        asyncio.run(LocalExecutor().start(setup))
    assert list(tmp_path.iterdir()) == []


def test_a_playwright_server_gets_the_launch_options_it_honours() -> None:
    cfg = BrowserConfig(
        ws_endpoint="ws://127.0.0.1:3000/", executable_path=Path("/opt/chromium"), headless=False
    )
    options = json.loads(server_launch_headers(cfg)["x-playwright-launch-options"])
    assert options["headless"] is False and options["executablePath"] == "/opt/chromium"
    assert "--disable-background-networking" in options["args"]
    assert "executablePath" not in json.loads(
        server_launch_headers(BrowserConfig())["x-playwright-launch-options"]
    )


def test_the_ray_executor_without_ray_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    setup = BatchSetup((BrowserConfig(),), ScriptedChatModel(replies=[]), BatchOptions(), 2)
    with pytest.raises(UserError, match=re.escape(f"RayExecutor needs ray: {install_hint('ray')}")):
        asyncio.run(RayExecutor().start(setup))
    with pytest.raises(UserError, match="at least one actor"):
        RayExecutor(actors=0)


def _progress_lines(words: Words, ended: list[Any]) -> tuple[str, str]:
    out = io.StringIO()
    progress = RunProgress(3, Console(file=out, width=300, no_color=True), words, concurrency=2)
    for item in ended:
        (progress.task_ended if isinstance(item, TaskOutcome) else progress.episode_ended)(item)
    return out.getvalue(), progress._counts()


def test_one_progress_display_renders_a_batch_and_an_evaluation() -> None:
    done = AgentHistory.model_validate(
        {
            "task": "t",
            "steps": [
                {"step": 1, "results": [{"is_done": True, "success": True, "extracted_content": "42"}]}
            ],
        }
    )
    lines, counts = _progress_lines(
        BATCH, [TaskOutcome(0, "a", done, 1.5), TaskOutcome(1, "b", AgentHistory(), 2.0)]
    )
    assert lines.splitlines() == [
        "done a in 1.5 s, 1 steps: 42",
        "failed b in 2.0 s, 0 steps: ended without being done",
    ]
    assert counts.startswith("[green]1 done[/] · [red]1 failed[/] · 1 running · ") and " tasks/min" in counts
    records = [
        EpisodeRecord(task="click", seed=3, success=True, steps=2, seconds=4.0, detail="reward 1"),
        EpisodeRecord(task="type", seed=0, success=False, failure="loop", detail="Loop: the same click"),
    ]
    lines, counts = _progress_lines(EVAL, records)
    assert lines.splitlines() == [
        "success click seed 3 in 4.0 s, 2 steps: reward 1",
        "loop type seed 0 in 0.0 s, 0 steps: Loop: the same click",
    ]
    assert (
        counts.startswith("[green]1 succeeded[/] · [red]1 failed[/] · 1 running · ")
        and "episodes/min" in counts
    )


@pytest.mark.parametrize(
    ("command", "flag", "message"),
    [
        ("batch", ["--task-timeout", "0"], "--task-timeout 0: give a number of seconds above 0."),
        ("batch", ["--max-steps", "0"], "--max-steps 0: give at least 1."),
        ("eval", ["--task-timeout", "-1"], "--task-timeout -1: give a number of seconds above 0."),
        ("eval", ["--concurrency", "0"], "--concurrency 0: give at least 1."),
    ],
)
def test_run_numbers_out_of_range_are_one_line_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, flag: list[str], message: str
) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "a", "task": "x", "checks": [{"text": "a"}]}\n')
    given = ["batch", str(tasks)] if command == "batch" else ["eval", "suite", str(tasks)]
    out = tmp_path / "out.jsonl"
    assert (
        main([*given, "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--out", str(out), *flag])
        == 2
    )
    assert capsys.readouterr().err == f"browser-agent {command}: {message}\n"
    assert not out.exists()
