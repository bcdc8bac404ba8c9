"""Clicks on a button another one lies over: MiniWoB++'s click-test-2 ("Click button ONE.") lays its two
buttons at random, sometimes one all but a few pixels under the other. No model: for each seed the
button the task names is clicked through the controller, as a model's click would be, and the page's
own reward says whether it was pressed.

Prints how many seeds were won, how many clicks took over 2 s (a click that waits out Playwright's
checks), and how many buttons the page view left out because nothing of them shows. Needs the `eval`
extra (the miniwob package); pages are served on 127.0.0.1.

    .venv/bin/python -m benchmarks.covered_click_bench [--seeds 300]
"""

from __future__ import annotations

import argparse
import asyncio
import time

from browser_agent.browser.session import BrowserSession
from browser_agent.controller import Controller
from browser_agent.eval import StaticSite, miniwob_folder
from browser_agent.eval.miniwob import START_JS

_SLOW_S = 2.0


async def _run(seeds: int) -> None:
    won = slow = left_out = 0
    with StaticSite(miniwob_folder()) as site:
        async with BrowserSession() as session:
            for seed in range(seeds):
                await session.navigate(f"{site.origin}/miniwob/click-test-2.html")
                task = await session.page.evaluate(START_JS, seed)
                name = task.split()[-1].rstrip(".")  # "Click button ONE."
                state = await session.state()
                assert state.snapshot is not None
                index = next((n.index for n in state.snapshot.selector_map.values() if n.text == name), None)
                if index is None:
                    left_out += 1
                    continue
                started = time.perf_counter()
                await Controller().run(
                    [{"action": "click_element", "index": index}],
                    session,
                    model_chose=True,
                    goal=f"Click button {name}.",
                )
                slow += time.perf_counter() - started > _SLOW_S
                won += await session.page.evaluate("() => WOB_REWARD_GLOBAL") > 0
    print(
        f"click-test-2, seeds 0-{seeds - 1}: {won}/{seeds} won; {slow} clicks over {_SLOW_S:g} s; "
        f"{left_out} buttons not in the page view (nothing of them shows)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    asyncio.run(_run(parser.parse_args().seeds))


if __name__ == "__main__":
    main()
