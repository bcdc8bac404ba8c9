"""Model in the loop: twelve small tasks on a local site, run by a real model, judged by the site.

    ../shared/llm/serve.sh        # a local OpenAI-compatible server (Qwen2.5-Coder-1.5B on llama.cpp)
    .venv/bin/python -m benchmarks.model_eval --base-url http://127.0.0.1:8088/v1 \\
        --mode raw --mode json_mode --mode json_schema [--tasks newsletter,bank] [--max-steps 8]

For each mode it prints, per task and in total: success (the site's own check), steps, seconds per step,
input tokens per step, the prefix-reuse share (the part of each request identical to the start of the
previous one, in o200k tokens, from step 3 on: what a provider's prefix cache can skip), the share the
server says it read from its cache (``cached_tokens`` in its usage, from step 3 on), and for every
failure a category: invalid output, loop, wrong element, gave up, timeout. Not part of CI: a 1.5B model
on two CPU cores takes 5-60 s an answer.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage

from benchmarks.model_eval_site import PASSWORD, TASKS, EvalSite, Task
from browser_agent import Agent, AgentSettings, BrowserConfig

MODES = ("raw", "json_mode", "json_schema")


class RequestLog(BaseCallbackHandler):
    """Every request sent to the model, as the text a server's prompt cache would see, in order."""

    def __init__(self) -> None:
        self.requests: list[str] = []

    def on_chat_model_start(
        self, serialized: dict[str, Any], messages: list[list[BaseMessage]], **kwargs: Any
    ) -> None:
        params = kwargs.get("invocation_params") or {}
        # Tools are part of llama.cpp's prompt (its chat template writes them out); a response_format is
        # a sampling grammar outside the prompt, so it is not part of what its cache compares.
        head = json.dumps({k: params[k] for k in ("tools",) if k in params}, sort_keys=True)
        for conversation in messages:
            body = "".join(
                f"<|{m.type}|>{m.content if isinstance(m.content, str) else json.dumps(m.content)}"
                for m in conversation
            )
            self.requests.append(head + body)


def prefix_shares(requests: list[str]) -> list[float]:
    """For each request after the first: the share of its tokens equal to the previous request's start."""
    from bpe_openai import get_encoding  # dev dependency: the o200k tokenizer, offline

    encoding = get_encoding("o200k_base")
    tokens = [encoding.encode(r) for r in requests]
    shares = []
    for before, now in itertools.pairwise(tokens):
        same = 0
        for a, b in zip(before, now, strict=False):
            if a != b:
                break
            same += 1
        shares.append(same / max(1, len(now)))
    return shares


def server_cache_shares(history: Any) -> list[float]:
    """What the server itself says it read from its prompt cache, per model step from step 3 on."""
    return [
        s.usage.cached_input_tokens / s.usage.input_tokens
        for s in history.steps
        if s.step >= 3 and s.usage.input_tokens
    ]


@dataclass
class Outcome:
    task: str
    success: bool
    steps: int
    seconds: float
    input_tokens: int
    shares: list[float] = field(default_factory=list)
    cached: list[float] = field(default_factory=list)
    failure: str = ""
    answer: str = ""


def categorize(history: Any, success: bool) -> str:
    if success:
        return ""
    errors = " ".join(e for e in history.errors() if e)
    # The page did not change and the same actions were sent again: a loop.
    signatures = [
        json.dumps([s.url, [a.flat() for a in s.actions]], sort_keys=True) for s in history.steps if s.actions
    ]
    repeats = max((signatures.count(s) for s in set(signatures)), default=0)
    if history.is_done() and history.is_successful() is False:
        return "gave up"
    if history.is_done():
        return "wrong element"
    invalid = sum("ModelOutputError" in (s.error or "") for s in history.steps)
    if invalid and invalid * 2 >= len(history.steps):
        return "invalid output"
    if repeats >= 3 or "repeat" in errors:
        return "loop"
    return "timeout"


def make_llm(base_url: str, model: str, log: RequestLog) -> Any:
    from langchain_openai import ChatOpenAI  # optional extra, installed by the dev extra

    return ChatOpenAI(
        base_url=base_url,
        api_key="local",
        model=model,
        temperature=0,
        max_tokens=600,
        timeout=600,
        callbacks=[log],
        max_retries=0,
    )


async def run_task(task: Task, site: EvalSite, mode: str, args: argparse.Namespace) -> Outcome:
    log = RequestLog()
    options: dict[str, Any] = {"tool_calling_method": mode, "max_failures": 4}
    if "step_timeout_s" in AgentSettings.model_fields:
        options["step_timeout_s"] = 900
    agent = Agent(
        task.text.format(base=site.origin),
        make_llm(args.base_url, args.model, log),
        # The suite's site only: a model that wanders (a web search, a guessed address) is fenced in.
        browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",), fence_subresources=True),
        settings=AgentSettings(**options),
        sensitive_data={"pw": PASSWORD},
    )
    started = time.perf_counter()
    try:
        history = await agent.run(max_steps=args.max_steps)
    except Exception as exc:
        history = getattr(exc, "history", None)
        if history is None:
            raise
    seconds = time.perf_counter() - started
    if args.histories:
        history.save(f"{args.histories}/{mode}-{task.name}.json")
    if args.requests:
        dump = Path(args.requests) / f"{mode}-{task.name}.txt"
        dump.parent.mkdir(parents=True, exist_ok=True)
        dump.write_text("\n\n======== next request\n".join(log.requests), encoding="utf-8")
    answer = history.final_result() or ""
    success = site.check(task, answer)
    asked = sum(step.step > 0 for step in history.steps)  # step 0 opens the task's address, no model call
    steps = max(1, asked)
    return Outcome(
        task.name,
        success,
        asked,
        seconds / steps,
        history.total_input_tokens() // steps,
        prefix_shares(log.requests)[1:],
        server_cache_shares(history),
        categorize(history, success),
        answer[:80],
    )


def report(mode: str, outcomes: list[Outcome]) -> dict[str, Any]:
    print(f"\n== mode {mode}")
    for o in outcomes:
        share = f"{statistics.median(o.shares) * 100:5.1f} %" if o.shares else "   -   "
        cached = f"{statistics.median(o.cached) * 100:5.1f} %" if o.cached else "   -   "
        verdict = "ok  " if o.success else "FAIL"
        print(
            f"{o.task:11} {verdict} steps {o.steps:2d}  {o.seconds:6.1f} s/step  "
            f"{o.input_tokens:6d} in/step  prefix {share}  cached {cached}  {o.failure:13} {o.answer!r}"
        )
    shares = [s for o in outcomes for s in o.shares]
    cached_shares = [s for o in outcomes for s in o.cached]
    summary = {
        "mode": mode,
        "success": sum(o.success for o in outcomes),
        "tasks": len(outcomes),
        "steps_mean": round(statistics.mean(o.steps for o in outcomes), 1),
        "s_per_step": round(statistics.median(o.seconds for o in outcomes), 1),
        "in_tokens_per_step": int(statistics.median(o.input_tokens for o in outcomes)),
        "prefix_share_median": round(statistics.median(shares) * 100, 1) if shares else None,
        "server_cached_median": round(statistics.median(cached_shares) * 100, 1) if cached_shares else None,
        "failures": {
            c: sum(o.failure == c for o in outcomes) for c in sorted({o.failure for o in outcomes} - {""})
        },
    }
    print(json.dumps(summary))
    return summary


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    chosen = [t for t in TASKS if not args.tasks or t.name in args.tasks.split(",")]
    summaries = []
    with EvalSite() as site:
        for mode in args.mode or MODES:
            outcomes = []
            for task in chosen:
                site.reset()
                outcome = await run_task(task, site, mode, args)
                outcomes.append(outcome)
                print(f"[{mode}] {task.name}: {'ok' if outcome.success else outcome.failure}", flush=True)
            summaries.append(report(mode, outcomes))
    return summaries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", default="local")
    parser.add_argument("--mode", action="append", choices=MODES)
    parser.add_argument("--tasks", help="comma-separated task names (default: all)")
    parser.add_argument("--max-steps", type=int, default=8)
    parser.add_argument("--out", help="write the summaries here as JSON")
    parser.add_argument("--histories", help="save each run's history in this folder")
    parser.add_argument("--requests", help="save each run's requests, as the prompt cache sees them, here")
    args = parser.parse_args()
    summaries = asyncio.run(main_async(args))
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(summaries, handle, indent=2)


if __name__ == "__main__":
    main()
