"""Judging a suite task: each of its checks run against the page the agent left and its answer."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from playwright.async_api import Page

from browser_agent import artifacts
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.watchdog import within
from browser_agent.errors import first_line
from browser_agent.eval.suite import Check
from browser_agent.record import AgentHistory

__all__ = ["CheckResult", "run_checks"]

_EVALUATE_S = 10.0  # a predicate or the page's text; a page that never yields fails the check
_BODY_TEXT = "() => document.body ? document.body.innerText : ''"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check of an episode: passed or not, and what was found instead when it failed."""

    check: Check
    passed: bool
    found: str = ""

    def describe(self) -> str:
        """``text "Thanks": passed`` or ``url "...": failed (found ...)``.

        What was found (the final address, say) may hold a secret the agent typed: it is redacted before
        it is cut, or the cut could keep the start of a secret that no longer matches.
        """
        if self.passed:
            return f"{self.check.describe()}: passed"
        return f"{self.check.describe()}: failed (found {artifacts.redacted(self.found)[:120]})"


async def run_checks(checks: tuple[Check, ...], page: Page, history: AgentHistory) -> list[CheckResult]:
    """Run every check against ``page`` (the tab the agent ended on) and the run's final answer."""
    return [await _run(check, page, history) for check in checks]


async def _run(check: Check, page: Page, history: AgentHistory) -> CheckResult:
    value = check.value
    if check.kind == "url":
        return CheckResult(check, page.url == value, page.url)
    if check.kind == "url_matches":
        return CheckResult(check, re.search(str(value), page.url) is not None, page.url)
    if check.kind == "output":
        answer = _answer(history)
        text = (history.final_result() or "").strip()
        passed = answer == value or (isinstance(value, str) and text == value.strip())
        return CheckResult(check, passed, json.dumps(answer, ensure_ascii=False))
    if check.kind == "answer_contains":
        text = history.final_result() or ""
        return CheckResult(check, _squeeze(str(value)) in _squeeze(text), repr(text))
    try:
        if check.kind == "text":
            body = str(await within(page.evaluate(_BODY_TEXT), _EVALUATE_S))
            return CheckResult(check, _squeeze(str(value)) in _squeeze(body), f"{len(body)} characters")
        result = await within(page.evaluate(str(value)), _EVALUATE_S)
    except TimeoutError:
        return CheckResult(check, False, f"no answer from the page in {_EVALUATE_S:g} s")
    except PlaywrightError as exc:  # the page is gone, or the predicate threw
        return CheckResult(check, False, f"an error: {first_line(exc).removeprefix('Page.evaluate: ')}")
    return CheckResult(check, bool(result), json.dumps(result, default=str)[:120])


def _answer(history: AgentHistory) -> Any:
    """The run's answer: its structured output as JSON data, else its final text (parsed when JSON)."""
    if history.output_model is not None:
        output = history.structured_output()
        return None if output is None else output.model_dump(mode="json")
    text = history.final_result()
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text.strip()


def _squeeze(text: str) -> str:
    return " ".join(text.split())
