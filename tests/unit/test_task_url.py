"""The one web address a task names is opened before the first step; none or several: the model picks."""

from __future__ import annotations

import pytest

from browser_agent.agent.task_url import task_url


@pytest.mark.parametrize(
    ("task", "url"),
    [
        ("Open http://127.0.0.1:8000/bank/ and report the balance", "http://127.0.0.1:8000/bank/"),
        ("Go to https://example.com/a?b=1&c=2.", "https://example.com/a?b=1&c=2"),
        ("Read (https://example.com/x), then https://example.com/x again", "https://example.com/x"),
        ("Sign in on 'https://example.com/login' as <secret>user</secret>", "https://example.com/login"),
        ("Find the cheapest flight to Lisbon", None),
        ("Compare https://a.example/ with https://b.example/", None),
        ("Mail me at ftp://files.example/ or example.com", None),
        ("Read file:///tmp/report.html and sum the table.", "file:///tmp/report.html"),
    ],
)
def test_task_url(task: str, url: str | None) -> None:
    assert task_url(task) == url


@pytest.mark.parametrize(
    ("fence", "opened"),
    [
        (None, True),  # not fenced: a local document the user named
        (("file:",), True),  # the fence lists local files
        (("http://127.0.0.1:*", "example.com"), False),  # fenced to sites: no file of this machine
        (("*",), False),  # "*" means every site, not the local disk
    ],
)
def test_a_file_url_is_opened_only_when_the_fence_allows_files(
    fence: tuple[str, ...] | None, opened: bool
) -> None:
    task = "Open file:///srv/pages/form.html and fill it in"
    assert task_url(task, fence) == ("file:///srv/pages/form.html" if opened else None)
    assert task_url("Open https://example.com/a and read it", fence) == "https://example.com/a"
