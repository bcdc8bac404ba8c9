"""The evaluation's statistics against known values, and compare/report on records made up here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_agent.cli import main
from browser_agent.errors import UserError
from browser_agent.eval.compare import compare
from browser_agent.eval.divergence import partings
from browser_agent.eval.episode_record import EpisodeRecord, read_records
from browser_agent.eval.stats import fisher_exact, wilson_interval
from browser_agent.output.eval_comparison import format_comparison
from browser_agent.output.eval_report import render_report
from browser_agent.record import ActionCall, AgentHistory, AgentStep, StepOutput


def test_wilson_interval_matches_known_values() -> None:
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(20, 20) == pytest.approx((0.8389, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_fisher_exact_matches_r_and_scipy() -> None:
    # fisher.test(matrix(c(8, 1, 2, 5), 2)) in R: p = 0.03497
    assert fisher_exact(8, 10, 1, 6) == pytest.approx(0.034965, abs=1e-5)
    # the lady tasting tea: 3 of 4 right against 1 of 4, p = 0.4857
    assert fisher_exact(3, 4, 1, 4) == pytest.approx(0.485714, abs=1e-5)
    assert fisher_exact(2, 2, 0, 2) == pytest.approx(1 / 3)
    assert fisher_exact(5, 10, 5, 10) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        fisher_exact(3, 2, 0, 2)


def _records(successes: dict[str, int], n: int, family: str = "easy") -> list[EpisodeRecord]:
    return [
        EpisodeRecord(
            task=task,
            family=family,
            seed=seed,
            success=seed < wins,
            reward=1.0 if seed < wins else -1.0,
            steps=2,
            model_calls=2,
            input_tokens=1000,
            seconds=3.0,
            failure="none" if seed < wins else "loop",
        )
        for task, wins in successes.items()
        for seed in range(n)
    ]


def test_compare_flags_a_big_difference_and_not_a_small_one() -> None:
    before = _records({"enter-text": 0, "click-button": 10, "choose-list": 5}, 20)
    after = _records({"enter-text": 20, "click-button": 11, "choose-list": 6}, 20)
    result = compare(before, after)
    named = {d.name: d for d in result.tasks}
    assert named["enter-text"].beyond_noise and named["enter-text"].p_value < 1e-6
    assert named["enter-text"].change == pytest.approx(1.0)
    assert not named["click-button"].beyond_noise and named["click-button"].p_value > 0.5
    assert result.total.a.successes == 15 and result.total.b.successes == 37 and result.total.beyond_noise
    assert result.only_b_won == 22 and result.only_a_won == 0
    text = format_comparison(result, "before.jsonl", "after.jsonl")
    assert "Fisher's exact test, two-sided; * marks p < 0.05 (beyond noise): enter-text, easy, total" in text
    assert "click-button" in text and "11/20" in text


def test_only_the_episodes_both_runs_have_are_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _records({"easy-one": 2, "hard-one": 0}, 10)
    stopped = _records({"easy-one": 10}, 10)  # a run stopped before the hard task
    result = compare(whole, stopped)
    assert (result.total.a.successes, result.total.a.n, result.total.b.successes) == (2, 10, 10)
    assert (result.only_in_a, result.only_in_b) == (10, 0)
    assert (
        "Compared: the 10 episodes both runs have (left out: 10 only in A, 0 only in B)."
        in format_comparison(result, "a", "b")
    )
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(r.line() + "\n" for r in whole))
    b.write_text("".join(r.line() + "\n" for r in _records({"other": 1}, 2)))
    assert main(["eval", "compare", str(a), str(b)]) == 2
    assert "no episode in common" in capsys.readouterr().err


def test_two_seeds_a_task_are_never_beyond_noise_alone() -> None:
    result = compare(_records({"t": 0}, 2), _records({"t": 2}, 2))
    assert not result.tasks[0].beyond_noise and result.tasks[0].p_value == pytest.approx(1 / 3)


def test_eval_compare_command_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(r.line() + "\n" for r in _records({"enter-text": 0, "focus-text": 8}, 10)))
    later = _records({"enter-text": 10, "focus-text": 7}, 10)
    b.write_text("".join(r.line() + "\n" for r in later) + '{"cut')
    assert main(["eval", "compare", str(a), str(b)]) == 0
    out = capsys.readouterr().out
    assert "enter-text" in out and "0/10" in out and "10/10" in out and "+100 %" in out
    line = next(x for x in out.splitlines() if x.startswith("focus-text"))
    assert line.split()[1:4] == ["8/10", "7/10", "-10"] and not line.endswith("*")
    assert main(["eval", "compare", str(a), str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl: cannot read it" in capsys.readouterr().err


def _history(folder: Path, name: str, *clicks: int) -> str:
    steps = [
        AgentStep(
            step=n, model_output=StepOutput(action=[ActionCall(name="click_element", params={"index": i})])
        )
        for n, i in enumerate(clicks, start=1)
    ]
    AgentHistory(task="t", steps=steps).save(folder / name)
    return name


def test_compare_says_where_the_runs_of_an_episode_parted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Histories named relative to their results file are found from anywhere; one that is gone is said."""
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()

    def record(folder: str, task: str, success: bool, *clicks: int) -> EpisodeRecord:
        history = _history(tmp_path / folder, f"{task}.json", *clicks) if clicks else "gone.json"
        return EpisodeRecord(task=task, family="easy", success=success, history=history)

    a = [
        record("a", "first", True, 0),
        record("a", "later", False, 0, 1),
        record("a", "same", True, 0, 0),
        record("a", "lost", True),
    ]
    b = [
        record("b", "first", False, 1),
        record("b", "later", True, 0, 2),
        record("b", "same", True, 0, 0),
        record("b", "lost", False, 3),
    ]
    found = partings(compare(a, b).discordant, a_folder=tmp_path / "a", b_folder=tmp_path / "b")
    assert [(p.task, p.a_won, p.step) for p in found] == [
        ("first", True, 1),
        ("later", False, 2),
        ("lost", True, None),
    ]
    for folder, records in (("a", a), ("b", b)):
        (tmp_path / folder / "results.jsonl").write_text("".join(r.line() + "\n" for r in records))
    assert (
        main(
            ["eval", "compare", str(tmp_path / "a" / "results.jsonl"), str(tmp_path / "b" / "results.jsonl")]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "later #0: B succeeded; replies first differ at step 2" in out
    assert "lost #0: A succeeded; replies first differ at unknown" in out
    assert "Parted at the first reply: 1; later: 1." in out


def test_report_is_self_contained_and_escapes_what_pages_wrote() -> None:
    records = _records({"click-button": 2, "enter-text": 0}, 2)
    records.append(
        EpisodeRecord(task="<img src=x>", family="x", success=False, failure="error", detail="<script>x()")
    )
    page = render_report(records, title="Run")
    assert "<script" not in page and "&lt;script&gt;x()" in page and "&lt;img src=x&gt;" in page
    assert "<b>2 of 5</b> episodes succeeded" in page and "<svg" in page
    assert "http" not in page.replace("http://www.w3.org/2000/svg", ""), "nothing is loaded from elsewhere"
    assert "<tr><td>loop</td><td class=n>2</td><td class=n>67 %</td></tr>" in page


def test_read_records_skips_a_cut_line_and_refuses_a_foreign_file(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(_records({"t": 1}, 1)[0].line() + "\n" + '{"task": "t", "seed"')
    assert [r.task for r in read_records(path)] == ["t"]
    path.write_text(json.dumps({"id": "x", "result": "from a batch"}) + "\n")
    with pytest.raises(UserError, match=r"line 1: not an episode record \(task: Field required"):
        read_records(path)
