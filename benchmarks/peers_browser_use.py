"""One MiniWoB++ episode driven by browser-use 0.13, run by ``benchmarks/peers_eval.py`` with the python of
browser-use's own venv (this file imports browser-use and the standard library only; the project never
imports it).

Reads a job as JSON on stdin (the page's address, the seed, the page scripts that start the episode and
read its ending, the model server, the step limit, the Chromium to drive), prints one JSON line: the
goal, the page's raw reward (null when the episode never ended), whether the agent called done, its
steps, tokens and seconds, and an error when the run raised.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any


async def _evaluate(session: Any, script: str, *args: Any) -> Any:
    page = await session.get_current_page()
    if page is None:  # between tabs (its focus moves as a navigation lands): no page to ask yet
        return None
    value = await page.evaluate(script, *args)
    if isinstance(value, str):
        try:
            return json.loads(value)  # browser-use's Page.evaluate returns objects as JSON text
        except ValueError:
            return value
    return value


async def run(job: dict[str, Any]) -> dict[str, Any]:
    from browser_use import Agent, BrowserProfile, BrowserSession, ChatOpenAI

    llm = ChatOpenAI(model=job["model"], base_url=job["base_url"], api_key="local", temperature=0)
    profile = BrowserProfile(
        headless=True,
        executable_path=job["chromium"],
        allowed_domains=["127.0.0.1"],
        user_data_dir=None,
        enable_default_extensions=False,  # else it downloads extensions from the web at start
    )
    session = BrowserSession(browser_profile=profile)
    await session.start()
    report: dict[str, Any] = {"reward": None}
    try:
        await session.navigate_to(job["url"])
        for _ in range(100):  # until the task's page (its scripts) is loaded: its navigation may still run
            ready = await _evaluate(session, "() => typeof core !== 'undefined' && document.readyState")
            if ready == "complete":
                break
            await asyncio.sleep(0.1)
        # its evaluate takes only "(args) => ..." functions: the async start script is called from one
        start = "(seed) => (" + job["start_js"] + ")(seed)"
        goal = str(await _evaluate(session, start, job["seed"]))
        report["goal"] = goal

        async def stop_when_ended(agent: Any) -> None:
            ending = await _evaluate(session, job["ending_js"])
            if isinstance(ending, dict):
                agent.stop()

        # no screenshots: the shared model reads no images (as ours runs, without --vision)
        agent = Agent(
            task=goal, llm=llm, browser_session=session, use_vision=False, llm_timeout=job["llm_timeout"]
        )
        started = time.perf_counter()
        try:
            history = await agent.run(max_steps=job["max_steps"], on_step_end=stop_when_ended)
        except Exception as exc:
            report["error"] = f"{type(exc).__name__}: {exc}"
            history = agent.history
        report["seconds"] = round(time.perf_counter() - started, 3)
        ending = await _evaluate(session, job["ending_js"])
        if isinstance(ending, dict):
            report["reward"] = float(ending.get("raw", 0.0))
        report.update(_usage(history))
    finally:
        await session.kill()
    return report


def _usage(history: Any) -> dict[str, Any]:
    usage = getattr(history, "usage", None)
    errors = [e for e in history.errors() if e]
    return {
        "failed_steps": len(errors),
        "last_error": errors[-1].strip().splitlines()[0] if errors else None,
        "done": bool(history.is_done()),
        "steps": len(history.history),
        "input_tokens": int(getattr(usage, "total_prompt_tokens", 0) or 0),
        "cached_input_tokens": int(getattr(usage, "total_prompt_cached_tokens", 0) or 0),
        "output_tokens": int(getattr(usage, "total_completion_tokens", 0) or 0),
    }


if __name__ == "__main__":
    result = asyncio.run(run(json.loads(sys.stdin.read())))
    print(json.dumps(result), flush=True)
