"""The shipped suites parse, and every page they start on is in their site folder."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from browser_agent.eval import read_suite
from browser_agent.eval.miniwob import FAMILIES

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


def test_the_miniwob_families_are_disjoint_and_twenty() -> None:
    names = [task for tasks in FAMILIES.values() for task in tasks]
    assert len(names) == len(set(names)) == 20
