"""Reading benchmark: what ``extract_content`` costs on long real pages, before and after passages.

For each question of the reading suite (``benchmarks/suites/reading-*.jsonl``) it serves the real-page
corpus (``../shared/corpus/realpages``) on 127.0.0.1 with every other request failing, opens the
question's page and counts o200k tokens of:

- ``call``: the extraction model's request. Before: the whole page text (at most 60,000 characters, the
  old ``extract_llm_max_chars``); after: the passages that best match the question (``controller/
  passages.py``, 600 tokens at most).
- ``next``: the agent's next request after an ``extract_content`` without an extraction model (system
  prompt, task, the step's memo with the result, the page view). Before: the result was the page's first
  8,000 characters; after: the best passages within 400 tokens.
- ``hit``: whether the answer (the task's ``answer_contains`` values) is in what was kept: before in the
  first 8,000 characters, after in the 400-token passages (and ``hit_llm`` in the 600-token ones).

- ``first_view`` / ``first_passages``: the agent's first request on the question's page without and
  with the page's passages that match the task under the view (``agent/task_passages.py``, the default
  200 tokens); ``hit_view`` / ``hit_passages``: whether the answer is in that request's state.

No model is called. Run: ``.venv/bin/python benchmarks/reading_bench.py [--corpus DIR] [--only ID]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from pathlib import Path
from typing import Any

from bpe_openai import get_encoding
from langchain_core.messages import BaseMessage

from browser_agent.agent.conversation import Conversation
from browser_agent.agent.settings import AgentSettings
from browser_agent.agent.task_passages import task_passages
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.page_markdown import page_markdown
from browser_agent.controller import Controller
from browser_agent.controller.actions.extraction import _SYSTEM
from browser_agent.controller.context import ControllerSettings
from browser_agent.controller.passages import best_passages
from browser_agent.eval import StaticSite, read_suite
from browser_agent.eval.suite import SuiteTask
from browser_agent.record import AgentStep

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "realpages"
SUITES = [ROOT / "benchmarks" / "suites" / f"reading-{half}.jsonl" for half in ("development", "held-out")]
OLD_RESULT_CHARS, OLD_CALL_CHARS = 8_000, 60_000  # the old extract_max_chars and extract_llm_max_chars
_ENCODING = get_encoding("o200k_base")
ACTIONS = Controller().describe_actions()
COUNTED = ("page_tok", "call_before", "call_after", "result_before", "result_after")
COUNTED += ("next_before", "next_after", "first_view", "first_passages")


def tokens(messages: list[BaseMessage] | str) -> int:
    if isinstance(messages, str):
        return len(_ENCODING.encode(messages))
    return sum(len(_ENCODING.encode(str(m.content))) for m in messages)


def _memo_step(goal: str, result: str) -> AgentStep:
    return AgentStep.model_validate(
        {
            "step": 1,
            "model_output": {
                "current_state": {"evaluation_previous_goal": "", "memory": "", "next_goal": "read"},
                "action": [{"action": "extract_content", "goal": goal}],
            },
            "results": [
                {"action": "extract_content", "extracted_content": result, "include_in_memory": True}
            ],
        }
    )


def next_request(task: SuiteTask, state: Any, result: str) -> int:
    """Tokens of the agent's request after a step whose extraction returned ``result``."""
    conversation = Conversation(task.task, max_actions=5, max_input_tokens=10**6, actions=ACTIONS)
    conversation.add_memo(_memo_step(task.task, result))
    return tokens(conversation.build(conversation.state_text(state, step=2, max_steps=6, plan=None)))


async def measure(session: BrowserSession, task: SuiteTask) -> dict[str, Any]:
    assert task.start_url is not None
    await session.navigate(task.start_url)
    state = await session.state()
    content = await page_markdown(session.page)
    goal, answers = task.task.removeprefix("Answer from this page: "), [str(c.value) for c in task.checks]
    settings = ControllerSettings()
    direct = best_passages(goal, content, settings.extract_passage_tokens)
    for_llm = best_passages(goal, content, settings.extract_llm_passage_tokens)
    old_result = f"Page content for {goal!r}:\n{content[:OLD_RESULT_CHARS]}"
    view, with_passages = await first_requests(session, task, state)
    (result,) = await Controller().run([{"action": "extract_content", "goal": goal}], session)
    assert result.extracted_content is not None, result.error
    return {
        "id": task.id,
        "page_tok": tokens(content),
        "call_before": tokens(_SYSTEM) + tokens(f"Goal: {goal}\n\nPage:\n{content[:OLD_CALL_CHARS]}"),
        "call_after": tokens(_SYSTEM) + tokens(f"Goal: {goal}\n\nPage:\n{for_llm.text()}"),
        "next_before": next_request(task, state, old_result),
        "result_before": tokens(old_result),
        "result_after": tokens(result.extracted_content),
        "next_after": next_request(task, state, result.extracted_content),
        "hit_before": all(a in content[:OLD_RESULT_CHARS] for a in answers),
        "hit_after": all(a in direct.text() for a in answers),
        "hit_llm": all(a in for_llm.text() for a in answers),
        "first_view": tokens(view),
        "first_passages": tokens(with_passages),
        "hit_view": all(a in str(view[-1].content) for a in answers),
        "hit_passages": all(a in str(with_passages[-1].content) for a in answers),
    }


async def first_requests(
    session: BrowserSession, task: SuiteTask, state: Any
) -> tuple[list[BaseMessage], list[BaseMessage]]:
    """The agent's first request on the page: without, then with, the task passages under the view."""
    requests = []
    for budget in (0, AgentSettings().task_passage_tokens):
        conversation = Conversation(task.task, max_actions=5, max_input_tokens=10**6, actions=ACTIONS)
        passages = await task_passages(session.page, task.task, state, budget, str)
        text = conversation.state_text(state, step=1, max_steps=6, plan=None, passages=passages)
        requests.append(conversation.build(text))
    return requests[0], requests[1]


async def main(corpus: Path, only: str | None) -> None:
    config = BrowserConfig(block_external_network=True, allowed_domains=("http://127.0.0.1:*",))
    with StaticSite(corpus) as site:
        tasks = [t for path in SUITES for t in read_suite(path, site=site.origin) if only in (None, t.id)]
        rows = []
        async with BrowserSession(config) as session:
            for task in tasks:
                rows.append(await measure(session, task))
                print("  ".join(f"{k}={v}" for k, v in rows[-1].items()), flush=True)
    for key in COUNTED:
        values = [r[key] for r in rows]
        print(f"{key:13} median {statistics.median(values):7.0f}  max {max(values):6d}")
    for key in ("hit_before", "hit_after", "hit_llm", "hit_view", "hit_passages"):
        print(f"{key:12} {sum(r[key] for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--only", help="one task id")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        sys.exit(f"{args.corpus}: no such folder; give the real-page corpus with --corpus DIR")
    asyncio.run(main(args.corpus, args.only))
