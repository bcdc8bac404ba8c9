"""The shipped suites parse, and every page they start on is in their site folder."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from browser_agent.errors import UserError
from browser_agent.eval import read_suite
from browser_agent.eval.miniwob import FAMILIES, TUNED, check_seeds, family_of
from browser_agent.eval.miniwob_split import DEVELOPMENT, HELD_OUT, KINDS, half_of, kind_of

ROOT = Path(__file__).resolve().parents[2]
SITE = "http://127.0.0.1:1"


def test_the_benchmark_site_suite_reads_and_its_pages_exist() -> None:
    tasks = read_suite(ROOT / "benchmarks" / "suites" / "site.jsonl", site=SITE)
    assert len(tasks) == 12 and len({t.family for t in tasks}) == 12
    folder = ROOT / "benchmarks" / "suites" / "site"
    for task in tasks:
        assert task.start_url is not None and task.start_url.startswith(SITE + "/")
        path = urlsplit(task.start_url).path
        assert (folder / path.lstrip("/") / "index.html").is_file(), task.task_id
        assert task.allowed_domains == ("http://127.0.0.1:*",)
        for check in task.checks:
            if check.kind == "url":
                target = urlsplit(str(check.value)).path.lstrip("/")
                assert (folder / target).is_file() or (folder / target / "index.html").is_file(), check
    bank = next(t for t in tasks if t.task_id == "bank")
    assert "<secret>pw</secret>" in bank.task and set(bank.secrets()) == {"pw"}


def test_the_twenty_tuned_tasks_are_disjoint_and_in_the_development_half() -> None:
    names = [task for tasks in TUNED.values() for task in tasks]
    assert len(names) == len(set(names)) == 20
    assert set(names) <= set(DEVELOPMENT) and not set(names) & set(HELD_OUT)


def test_the_broad_suite_is_split_by_task_into_two_halves_of_every_kind() -> None:
    suite = [task for tasks in KINDS.values() for task in tasks]
    assert len(suite) == len(set(suite)) and 50 <= len(suite) <= 60, len(suite)
    assert set(DEVELOPMENT) | set(HELD_OUT) == set(suite) and not set(DEVELOPMENT) & set(HELD_OUT)
    assert abs(len(DEVELOPMENT) - len(HELD_OUT)) <= 6
    for kind, tasks in KINDS.items():
        halves = {half_of(t) for t in tasks}
        assert halves == {"development", "held-out"}, kind
        assert all(kind_of(t) == kind == family_of(t) for t in tasks)
    assert FAMILIES["development"] == DEVELOPMENT and FAMILIES["held-out"] == HELD_OUT
    assert family_of("drag-box") == "miniwob" and half_of("drag-box") is None


def test_every_task_of_the_suite_is_a_page_of_the_package() -> None:
    pytest.importorskip("miniwob")
    from browser_agent.eval.miniwob import miniwob_folder

    pages = {p.stem for p in (miniwob_folder() / "miniwob").glob("*.html")}
    assert set(DEVELOPMENT) | set(HELD_OUT) <= pages


def test_held_out_tasks_run_only_with_reporting_seeds() -> None:
    check_seeds(list(DEVELOPMENT), [0, 9])
    check_seeds(list(HELD_OUT), [100, 101])
    with pytest.raises(UserError, match="held-out tasks run only to report, with seeds from 100 up"):
        check_seeds(["click-button", "enter-date"], [0, 100])
