"""When a tab's dialogs count as a loop: many in a row, each soon after the last."""

from __future__ import annotations

import asyncio

import pytest

from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.tabs import TabRegistry


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def time(self) -> float:
        return self.now


@pytest.fixture
async def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(asyncio.get_running_loop(), "time", fake.time)
    return fake


async def test_the_twenty_sixth_quick_dialog_is_a_loop(clock: _Clock) -> None:
    tabs = TabRegistry(BrowserConfig())
    seen = []
    for _ in range(26):
        clock.now += 0.01
        seen.append(tabs._in_a_loop(0))
    assert seen == [False] * 25 + [True]


async def test_slow_dialogs_and_other_tabs_start_a_new_run(clock: _Clock) -> None:
    tabs = TabRegistry(BrowserConfig())
    for _ in range(100):  # one a second, as a page made for a person raises them: never a loop
        clock.now += 1.0
        assert not tabs._in_a_loop(0)
    for _ in range(24):  # with the last slow one, 25 in a row
        clock.now += 0.01
        assert not tabs._in_a_loop(0)
    clock.now += 0.6  # a pause starts the count again
    assert not any(tabs._in_a_loop(0) for _ in range(25))
    assert not tabs._in_a_loop(1)  # each tab counts its own
    assert tabs._in_a_loop(0)


async def test_an_input_of_ours_starts_the_count_again(clock: _Clock) -> None:
    tabs = TabRegistry(BrowserConfig())
    for _ in range(40):  # a fast replay clicking a button that alerts: one dialog per click
        clock.now += 0.01
        tabs.input_sent()
        assert not tabs._in_a_loop(0)
    assert not any(tabs._in_a_loop(0) for _ in range(24))  # 25 in a row with the last click's
    assert tabs._in_a_loop(0)
