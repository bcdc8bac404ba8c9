"""Reply timing: where a step's model time goes on a local server, with the prompt held fixed.

A step's model time on llama.cpp is the new prompt tokens read (the cached start is skipped) plus the
reply's tokens decoded one at a time. Runs of an evaluation mix both with the machine's load, so this
benchmark holds the prompt fixed:

1. It captures the agent's real ``json_schema`` requests on a few MiniWoB++ development tasks (seed 0,
   two steps each), answered by a loopback fake server (``tests/support/fake_openai.py``): the same
   system prompt, page view and grammar the model would get.
2. It sends each request to the server once to put its prompt in the cache, then once per variant of
   the reply's grammar, at temperature 0, and reads the server's own timings (``timings`` in
   llama.cpp's answer): tokens decoded, milliseconds a decoded token, and the wall time of the call.

Variants: ``as_sent``; ``no_grammar`` (no ``response_format``: what the grammar costs a token);
``no_max_length`` (the text fields' length limits left out); ``memory_pinned`` (the memory pinned to
``""``); ``opening`` (the request ends with the reply's fixed opening, which llama.cpp reads with the
prompt and goes on from: ``AgentSettings.prefill_reply``). The prompts are the same in every variant, so
the differences are the reply's; ``same reply`` counts the replies identical to ``as_sent``'s.

Needs a llama.cpp server (``../shared/llm/serve.sh``); sends nothing elsewhere.
Run from the repository root: ``.venv/bin/python -m benchmarks.reply_timing --base-url http://127.0.0.1:8088/v1``.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import statistics
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from browser_agent.agent.settings import AgentSettings
from browser_agent.eval.evaluation import EvalOptions, run_episodes
from browser_agent.eval.miniwob import MiniwobEpisode, miniwob_folder
from browser_agent.eval.static_site import StaticSite
from browser_agent.llm.schemas import fixed_opening
from browser_agent.models import chat_model
from tests.support.fake_openai import FakeOpenAI

TASKS = ("enter-text", "login-user", "click-checkboxes", "choose-list", "focus-text", "enter-password")
Request = dict[str, Any]


def _answer(body: Request) -> Request:
    """A reply the grammar admits: the first element clicked, or ``done`` on a page without one."""
    schema = body["response_format"]["json_schema"]["schema"]
    branches = {
        b["properties"]["action"]["enum"][0]: b for b in schema["properties"]["action"]["items"]["anyOf"]
    }
    state = schema["properties"]["current_state"]["properties"]
    evaluation = state["evaluation_previous_goal"].get("enum", ["Unknown"])[0]
    brain = {"evaluation_previous_goal": evaluation, "memory": "", "next_goal": "Click the first element."}
    if "click_element" in branches:
        action = {
            "action": "click_element",
            "index": branches["click_element"]["properties"]["index"]["enum"][0],
        }
    else:
        action = {"action": "done", "text": "x", "success": False}
    return {"current_state": brain, "action": [action]}


async def capture(tasks: tuple[str, ...]) -> list[Request]:
    with TemporaryDirectory() as out, StaticSite(miniwob_folder()) as site, FakeOpenAI(_answer) as fake:
        llm = chat_model("openai:local", base_url=fake.base_url, api_key="local", max_retries=0)
        episodes = [MiniwobEpisode(task, 0, site.origin, max_steps=2) for task in tasks]
        options = EvalOptions(settings=AgentSettings(tool_calling_method="json_schema"), max_steps=2)
        await run_episodes(episodes, llm, Path(out) / "runs.jsonl", options)
        return list(fake.requests)


def _without(node: Any, key: str) -> Any:
    if isinstance(node, dict):
        return {k: _without(v, key) for k, v in node.items() if k != key}
    if isinstance(node, list):
        return [_without(v, key) for v in node]
    return node


def _state_fields(body: Request) -> dict[str, Any]:
    fields: dict[str, Any] = body["response_format"]["json_schema"]["schema"]["properties"]["current_state"][
        "properties"
    ]
    return fields


def _begun(body: Request) -> Request:
    opening = fixed_opening(body["response_format"]["json_schema"]["schema"])
    return {**body, "messages": [*body["messages"], {"role": "assistant", "content": opening}]}


def _memory_pinned(body: Request) -> Request:
    _state_fields(body)["memory"] = {"type": "string", "enum": [""]}
    return body


VARIANTS: dict[str, Callable[[Request], Request]] = {
    "as_sent": lambda body: body,
    "no_grammar": lambda body: {k: v for k, v in body.items() if k != "response_format"},
    "no_max_length": lambda body: _without(body, "maxLength"),
    "memory_pinned": _memory_pinned,
    "opening": _begun,
}


def send(url: str, body: Request) -> dict[str, Any]:
    body = {**body, "stream": False, "temperature": 0.0}
    started = time.perf_counter()
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.load(response)
    timings = answer.get("timings", {})
    return {
        "wall_ms": (time.perf_counter() - started) * 1000,
        "decoded": timings.get("predicted_n", 0),
        "decode_ms": timings.get("predicted_ms", 0.0),
        "reply": answer["choices"][0]["message"]["content"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", default="http://127.0.0.1:8088/v1")
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help="comma-separated, from: " + ", ".join(VARIANTS)
    )
    args = parser.parse_args()
    url = args.base_url.rstrip("/") + "/chat/completions"
    chosen = args.variants.split(",")
    requests = asyncio.run(capture(TASKS))
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in chosen}
    sent: list[str] = []
    for body in requests:
        # The prompt into the server's cache (the variants then differ only in the reply), and the reply.
        sent.append(send(url, body)["reply"])
        for name in chosen:
            rows[name].append(send(url, VARIANTS[name](copy.deepcopy(body))))
    print(f"{len(requests)} requests from {len(TASKS)} MiniWoB++ tasks (seed 0, two steps), temperature 0")
    print(f"{'variant':15} {'tokens decoded':>15} {'ms a token':>11} {'call ms':>8} {'same reply':>11}")
    for name, found in rows.items():
        tokens = statistics.median(r["decoded"] for r in found)
        per_token = statistics.median(r["decode_ms"] / max(r["decoded"], 1) for r in found)
        wall = statistics.median(r["wall_ms"] for r in found)
        same = sum(r["reply"] == first for r, first in zip(found, sent, strict=True))
        print(f"{name:15} {tokens:>15.0f} {per_token:>11.1f} {wall:>8.0f} {same:>6}/{len(found)}")
    print("(medians, but the last column)")


if __name__ == "__main__":
    main()
