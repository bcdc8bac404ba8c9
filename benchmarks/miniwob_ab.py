"""MiniWoB++ episodes with a real model, one JSON line each: the fixed A/B that a change to the prompt,
the state or the loop rules is measured with before it lands.

Each episode opens a MiniWoB++ task page (from the ``miniwob`` package, served on 127.0.0.1), starts it
with the given seed through the page's own ``core.startEpisodeReal()`` (with the 10 s episode timer
lifted: a CPU model takes longer than a person), gives the agent the task's utterance with the page
already open, and judges the episode by the task's own reward (``WOB_RAW_REWARD_GLOBAL`` > 0 when the
episode ends; the run is stopped at the step that ends it). Not part of CI.

    pip install --no-deps miniwob       # into the venv; only its HTML tasks are used (not gymnasium)
    ../shared/llm/serve.sh              # the local model on http://127.0.0.1:8088/v1
    .venv/bin/python -m benchmarks.miniwob_ab --mode raw --out new.jsonl [--histories DIR]
    .venv/bin/python -m benchmarks.miniwob_ab --summary benchmarks/baselines/miniwob_raw.jsonl new.jsonl

Compare a change with the baselines in ``benchmarks/baselines/`` (same tasks, seeds, model and mode):
``--summary`` prints success per family and in total, steps, seconds and input tokens per step.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import http.server
import importlib.util
import json
import statistics
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from browser_agent import Agent, AgentHooks, AgentSettings, BrowserConfig, BrowserSession

EASY = (
    "click-button,click-link,enter-text,focus-text,click-checkboxes,"
    "login-user,enter-password,click-dialog,choose-list,click-tab"
)
_START = "() => { core.EPISODE_MAX_TIME = 3600000; Math.seedrandom(%r); core.startEpisodeReal(); }"
_UTTERANCE = "() => { const u = core.getUtterance(); return typeof u === 'string' ? u : u.utterance; }"
_ENDED = "() => [WOB_DONE_GLOBAL, WOB_RAW_REWARD_GLOBAL]"


def _serve() -> http.server.ThreadingHTTPServer:
    spec = importlib.util.find_spec("miniwob")  # located, not imported: its __init__ needs gymnasium
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the miniwob package is not installed: pip install --no-deps miniwob")
    root = Path(spec.submodule_search_locations[0]) / "html"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args, **kwargs: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def _model(base_url: str) -> Any:
    from langchain_openai import ChatOpenAI  # optional extra, installed by the dev extra

    return ChatOpenAI(
        base_url=base_url,
        api_key="local",
        model="local",
        temperature=0,
        max_tokens=600,
        timeout=600,
        max_retries=0,
    )


async def episode(origin: str, task: str, seed: int, args: argparse.Namespace) -> dict[str, Any]:
    async with BrowserSession(BrowserConfig(allowed_domains=("http://127.0.0.1:*",))) as session:
        await session.navigate(f"{origin}/miniwob/{task}.html")
        page = session.page
        await page.evaluate(_START % seed)
        utterance = await page.evaluate(_UTTERANCE)
        ended: list[float] = []

        async def on_end(agent: Agent, step: Any) -> None:
            done, reward = await page.evaluate(_ENDED)
            if done and not ended:
                ended.append(float(reward))
                agent.stop()

        settings = AgentSettings(tool_calling_method=args.mode, max_failures=4, step_timeout_s=900)
        agent = Agent(
            utterance,
            _model(args.base_url),
            browser=session,
            settings=settings,
            hooks=AgentHooks(on_step_end=on_end),
        )
        started = time.perf_counter()
        history = await agent.run(max_steps=args.max_steps)
        seconds = time.perf_counter() - started
    if args.histories:
        Path(args.histories).mkdir(parents=True, exist_ok=True)
        history.save(Path(args.histories) / f"{args.mode}-{task}-{seed}.json")
    steps = sum(s.step > 0 for s in history.steps)
    reward = ended[0] if ended else 0.0
    return {
        "task": task,
        "seed": seed,
        "mode": args.mode,
        "utterance": utterance,
        "reward": reward,
        "success": reward > 0,
        "steps": steps,
        "seconds": round(seconds, 1),
        "input_tokens": history.total_input_tokens(),
        "errors": sum(1 for e in history.errors() if e),
        "actions": [[a.name for a in s.actions] for s in history.steps if s.step > 0],
    }


def summary(paths: list[str]) -> None:
    for path in paths:
        rows = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        by_task: dict[str, list[bool]] = defaultdict(list)
        for row in rows:
            by_task[row["task"]].append(row["success"])
        steps = sum(max(1, r["steps"]) for r in rows)
        print(
            f"{path}: {sum(r['success'] for r in rows)}/{len(rows)}, "
            f"{sum(r['seconds'] for r in rows) / steps:.1f} s/step, "
            f"{sum(r['input_tokens'] for r in rows) / steps:.0f} input tokens/step, "
            f"median {statistics.median(r['input_tokens'] / max(1, r['steps']) for r in rows):.0f}"
        )
        print("  " + ", ".join(f"{t} {sum(v)}/{len(v)}" for t, v in by_task.items()))


async def main(args: argparse.Namespace) -> None:
    server = _serve()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {(r["task"], r["seed"]) for r in map(json.loads, out.read_text().splitlines()) if r}
    for task in args.tasks.split(","):
        for seed in (int(s) for s in args.seeds.split(",")):
            if (task, seed) in done:
                continue
            row = await episode(origin, task, seed, args)
            print(json.dumps({k: v for k, v in row.items() if k != "actions"}), flush=True)
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
    server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tasks", default=EASY)
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--mode", default="raw", choices=["raw", "json_mode", "json_schema", "auto"])
    parser.add_argument("--max-steps", type=int, default=4)
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument("--out")
    parser.add_argument("--histories")
    parser.add_argument("--summary", nargs="+", metavar="JSONL")
    parsed = parser.parse_args()
    if parsed.summary:
        summary(parsed.summary)
    else:
        if not parsed.out:
            parser.error("--out is required to run episodes")
        asyncio.run(main(parsed))
