"""MiniWoB++ built in: the ``miniwob`` package's own HTML tasks, served on 127.0.0.1, judged by their reward.

An episode opens ``miniwob/<task>.html``, seeds the page's random numbers (``Math.seedrandom(seed)``),
starts the episode through the page's own ``core.startEpisodeReal()`` (the 10 s episode timer lifted:
a model on a CPU takes longer than a person) and gives the agent the task's utterance
(``core.getUtterance()``). The page's first ``core.endEpisode(reward)`` is the verdict: success when its
raw reward (``WOB_RAW_REWARD_GLOBAL``) is above 0. The run is stopped at the step that ends the
episode; an episode the agent never ends scores 0. Only the HTML files are used (not Selenium or
gymnasium); the package is the optional extra ``eval``.
"""

from __future__ import annotations

import difflib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browser_agent.batch import TaskSpec
from browser_agent.browser import BrowserSession
from browser_agent.browser.watchdog import within
from browser_agent.errors import UserError
from browser_agent.eval.episode import Verdict
from browser_agent.eval.miniwob_split import DEVELOPMENT, HELD_OUT, KINDS, REPORTING_SEEDS_FROM, kind_of
from browser_agent.extras import install_hint
from browser_agent.record import AgentHistory

__all__ = [
    "ENDING_JS",
    "FAMILIES",
    "START_JS",
    "TUNED",
    "MiniwobEpisode",
    "check_seeds",
    "family_of",
    "miniwob_folder",
    "miniwob_tasks",
]

TUNED: dict[str, tuple[str, ...]] = {
    # the ten of issue 25's table: one page, a few seconds for a person
    "easy": (
        "click-button",
        "click-link",
        "enter-text",
        "focus-text",
        "click-checkboxes",
        "login-user",
        "enter-password",
        "click-dialog",
        "choose-list",
        "click-tab",
    ),
    # ten more of the same kind: with "easy", twenty tasks for a success rate that means something
    "easy-2": (
        "click-button-sequence",
        "click-option",
        "click-dialog-2",
        "click-test",
        "click-test-2",
        "click-widget",
        "enter-text-2",
        "enter-text-dynamic",
        "focus-text-2",
        "login-user-popup",
    ),
}
"""The twenty tasks the agent was tuned on before the broad suite was split: all in its development half."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "development": DEVELOPMENT,
    "held-out": HELD_OUT,
    **KINDS,
    **TUNED,
}
"""Named lists of MiniWoB++ tasks (``--families held-out``): the broad suite's two halves, its kinds, and
the twenty tasks tuned on before the split."""

START_JS = """async (seed) => {
  core.EPISODE_MAX_TIME = 3600 * 1000;
  Math.seedrandom(seed);
  core.startEpisodeReal();
  window.__evalEnding = null;
  const end = core.endEpisode;
  core.endEpisode = function () {
    end.apply(this, arguments);
    if (window.__evalEnding === null && WOB_DONE_GLOBAL) {
      window.__evalEnding = {raw: WOB_RAW_REWARD_GLOBAL, reason: String(WOB_REWARD_REASON)};
    }
  };
  // one episode per page: the START cover shown after the end must not begin another
  core.startEpisodeReal = function () {};
  for (let i = 0; i < 100 && !WOB_TASK_READY; i++) await new Promise((r) => setTimeout(r, 50));
  const u = core.getUtterance();
  return typeof u === "string" ? u : u.utterance;
}"""
"""Seeds and starts the episode (its argument: the seed); returns the utterance. Shared with peers'
runs (benchmarks/peers_eval.py), so that every agent meets the same page."""
ENDING_JS = "() => window.__evalEnding"
"""The page's first ending of the episode, ``{raw, reason}``, or null while it runs."""
_PAGE_S = 10.0


def miniwob_folder() -> Path:
    """The ``html`` folder of the installed ``miniwob`` package, found without importing it (its
    ``__init__`` loads gymnasium).

    Raises:
        UserError: the package is not installed; the message says what to install.
    """
    spec = importlib.util.find_spec("miniwob")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    folder = next((Path(p) / "html" for p in locations if (Path(p) / "html" / "miniwob").is_dir()), None)
    if folder is None:
        raise UserError(f"MiniWoB++ tasks need the miniwob package: {install_hint('eval')}")
    return folder


def family_of(task: str) -> str:
    """The family results are summed by: the task's kind in the broad suite, else ``miniwob``."""
    return kind_of(task) or "miniwob"


def check_seeds(tasks: list[str], seeds: list[int]) -> None:
    """The split's rule: a held-out task runs only with reporting seeds (``REPORTING_SEEDS_FROM`` up).

    Raises:
        UserError: a held-out task with a development seed.
    """
    held = [t for t in tasks if t in HELD_OUT]
    early = [s for s in seeds if s < REPORTING_SEEDS_FROM]
    if held and early:
        raise UserError(
            f"{len(held)} held-out task(s) ({', '.join(held[:3])}{', ...' if len(held) > 3 else ''}) with "
            f"seed(s) {', '.join(map(str, early))}: held-out tasks run only to report, with seeds from "
            f"{REPORTING_SEEDS_FROM} up (docs/eval.md). Choose changes on --families development."
        )


def miniwob_tasks(folder: Path, tasks: list[str], families: list[str]) -> list[str]:
    """The task names of ``--tasks`` and ``--families`` (in that order, each once), checked to exist.

    Raises:
        UserError: no task is named, or a task or family is unknown (close names are suggested).
    """
    known = sorted(p.stem for p in (folder / "miniwob").glob("*.html"))
    chosen: list[str] = []
    for family in families:
        if family not in FAMILIES:
            raise UserError(f"Unknown MiniWoB++ family {family!r}; the families are {', '.join(FAMILIES)}.")
        chosen += FAMILIES[family]
    for task in [*tasks, *chosen]:
        if task not in known:
            close = difflib.get_close_matches(task, known, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else f" ({len(known)} tasks in {folder})."
            raise UserError(f"Unknown MiniWoB++ task {task!r}{hint}")
    ordered = list(dict.fromkeys([*tasks, *chosen]))
    if not ordered:
        raise UserError("Name the MiniWoB++ tasks to run: --tasks click-button,... or --families easy.")
    return ordered


@dataclass(frozen=True, slots=True)
class MiniwobEpisode:
    """One MiniWoB++ task with one seed, on the pages served at ``origin``."""

    task: str
    seed: int
    origin: str
    family: str = ""
    max_steps: int | None = None

    @property
    def name(self) -> str:
        return self.task

    @property
    def spec(self) -> TaskSpec:
        """Fenced to the pages' site; the task said is the page's utterance (``open``)."""
        return TaskSpec(
            task=f"MiniWoB++ {self.task}, seed {self.seed}",
            id=f"{self.task}-{self.seed}",
            max_steps=self.max_steps,
            allowed_domains=(self.origin,),
            judge=self,
        )

    async def open(self, session: BrowserSession) -> str:
        """Load the task's page, start the seeded episode, and return its utterance (the whole task: a
        web address in it is data, not a page to open)."""
        await session.navigate(f"{self.origin}/miniwob/{self.task}.html")
        utterance = await within(session.page.evaluate(START_JS, self.seed), _PAGE_S)
        return str(utterance)

    async def ended(self, session: BrowserSession) -> bool:
        return await self._ending(session) is not None

    async def verdict(self, session: BrowserSession, history: AgentHistory) -> Verdict:
        ending = await self._ending(session)
        if ending is None:
            return Verdict(False, 0.0, "the episode did not end (reward 0)")
        raw = float(ending.get("raw", 0.0))
        reason = ending.get("reason")
        detail = f"reward {raw:g}" + (f" ({reason})" if reason not in (None, "null", "undefined") else "")
        return Verdict(raw > 0, raw, detail)

    async def _ending(self, session: BrowserSession) -> dict[str, Any] | None:
        """The page's first ending of the episode, read from the tab the task runs in."""
        page = session.context.pages[0] if session.context.pages else session.page
        found = await within(page.evaluate(ENDING_JS), _PAGE_S)
        return found if isinstance(found, dict) else None
