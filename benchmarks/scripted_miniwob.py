"""A perfect policy, scripted, on MiniWoB++ development tasks that need one or two plain actions: what the
framework itself loses when the model is never wrong. No model: for each seed the actions a person would
take (click the button the task names, type the quoted text and press Submit, ...) are sent through the
controller as a model's would be (``model_chose=True``, with the task, so the guards act), and the
page's own reward says whether the task was done.

Prints, per task, the seeds won, the actions that took over 2 s (a click that waits out Playwright's
checks), and the seeds the policy could not act on because the page view left the element out (nothing
of it shows). Found so far: click-test-2 laying one button all but 7 px under the other (the click waited
out its checks), and the submit guard holding click-button's "Click on the "Submit" button." beside empty
fields. A task of several steps (search-engine: type and search, open the page of the Nth result, click
it) asks its policy again on each new page, at most four times, until the page gives a reward. Needs the
`eval` extra (the miniwob package); pages are served on 127.0.0.1.

    .venv/bin/python -m benchmarks.scripted_miniwob [--seeds 100] [--tasks click-button,click-test-2]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

from browser_agent.browser.session import BrowserSession
from browser_agent.controller import Controller
from browser_agent.dom.pagination import page_links
from browser_agent.dom.ranks import result_places
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.eval import StaticSite, miniwob_folder
from browser_agent.eval.miniwob import START_JS

_SLOW_S = 2.0
Actions = list[dict[str, Any]]


def _quoted(task: str) -> list[str]:
    return re.findall(r'"([^"]*)"', task)


def _index(snapshot: DomSnapshot, wanted: Callable[[ElementNode], bool]) -> int | None:
    return next(
        (n.index for n in sorted(snapshot.selector_map.values(), key=lambda n: n.index) if wanted(n)), None
    )


def _text(node: ElementNode) -> str:
    return (node.text or "").strip()


def _fields(snapshot: DomSnapshot) -> list[int]:
    return [
        n.index for n in sorted(snapshot.selector_map.values(), key=lambda n: n.index) if n.tag == "input"
    ]


def _click(index: int | None) -> Actions | None:
    return None if index is None else [{"action": "click_element", "index": index}]


def _typed_and_sent(snapshot: DomSnapshot, texts: list[str]) -> Actions | None:
    fields, submit = _fields(snapshot), _index(snapshot, lambda n: n.tag == "button")
    if submit is None or len(fields) < len(texts):
        return None
    typing = [{"action": "input_text", "index": f, "text": t} for f, t in zip(fields, texts, strict=False)]
    return [*typing, {"action": "click_element", "index": submit}]


def _nth_result(task: str, snapshot: DomSnapshot) -> Actions | None:
    """search-engine: type the quoted name and search; then click the Nth result where the view gives its
    place, or else the link of the page that holds it."""
    nodes = sorted(snapshot.selector_map.values(), key=lambda n: n.index)
    field = next((n for n in nodes if n.tag == "input"), None)
    if field is not None and not any(state.startswith("value=") for state in field.states):
        search = _index(snapshot, lambda n: n.tag == "button")
        typed = {"action": "input_text", "index": field.index, "text": _quoted(task)[0]}
        return None if search is None else [typed, {"action": "click_element", "index": search}]
    wanted = int(re.findall(r"(\d+)(?:st|nd|rd|th) search result", task)[0])
    pages = page_links(snapshot.items)
    places = result_places(snapshot.items, pages, snapshot.scroll, snapshot.page_size)
    by_id = {n.element_id: n for n in nodes}
    here = next((by_id[e] for e, place in places.items() if place == wanted and e in by_id), None)
    if here is not None:
        return _click(here.index)
    if not places:
        return None
    page = (wanted - 1) // len(places) + 1
    return _click(_index(snapshot, lambda n: n.element_id in pages and _text(n) == str(page)))


# Each policy: from the task and the page the model would see, the actions that do the task (None when
# the element it needs is not in the view).
POLICIES: dict[str, Callable[[str, DomSnapshot], Actions | None]] = {
    "click-button": lambda task, s: _click(
        _index(s, lambda n: n.tag == "button" and _text(n) == _quoted(task)[0])
    ),
    "click-link": lambda task, s: _click(_index(s, lambda n: _text(n) == _quoted(task)[0])),
    "click-test": lambda task, s: _click(_index(s, lambda n: n.tag == "button")),
    "click-test-2": lambda task, s: _click(_index(s, lambda n: _text(n) == task.split()[-1].rstrip("."))),
    "click-dialog": lambda task, s: _click(_index(s, lambda n: n.tag == "button" and "close" in n.icon)),
    "focus-text": lambda task, s: _click(_index(s, lambda n: n.tag == "input")),
    "enter-text": lambda task, s: _typed_and_sent(s, _quoted(task)[:1]),
    "enter-password": lambda task, s: _typed_and_sent(s, _quoted(task)[:1] * 2),
    "login-user": lambda task, s: _typed_and_sent(s, _quoted(task)[:2]),
    "search-engine": _nth_result,
}
_ROUNDS = 4  # a policy is asked again on each new page, this many times at most


async def _task(session: BrowserSession, origin: str, name: str, seeds: int) -> str:
    won = slow = left_out = 0
    policy = POLICIES[name]
    for seed in range(seeds):
        await session.navigate(f"{origin}/miniwob/{name}.html")
        task = await session.page.evaluate(START_JS, seed)
        reward = 0.0
        for _ in range(_ROUNDS):
            state = await session.state()
            assert state.snapshot is not None
            actions = policy(task, state.snapshot)
            if actions is None:
                left_out += 1
                break
            started = time.perf_counter()
            await Controller().run(actions, session, model_chose=True, task=task)
            slow += time.perf_counter() - started > _SLOW_S
            reward = await session.page.evaluate("() => WOB_REWARD_GLOBAL")
            if reward:
                break
        won += reward > 0
    return f"{name:15} {won:3}/{seeds} won  {slow} over {_SLOW_S:g} s  {left_out} not in the view"


async def _run(tasks: list[str], seeds: int) -> None:
    with StaticSite(miniwob_folder()) as site:
        async with BrowserSession() as session:
            for name in tasks:
                print(await _task(session, site.origin, name, seeds), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--tasks", default=",".join(POLICIES), help="comma-separated; default: all")
    args = parser.parse_args()
    asyncio.run(_run(args.tasks.split(","), args.seeds))


if __name__ == "__main__":
    main()
