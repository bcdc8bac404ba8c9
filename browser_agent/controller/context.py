"""``ActionContext``: everything an action may need, injected by type into the functions that ask for it.

One context lives for one ``Controller.run`` call. Indices are resolved against ``snapshot``, the
capture the model saw when it chose the actions; with none, an index is an error (never a guess).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from playwright.async_api import ElementHandle, Page

from browser_agent.browser import BrowserSession
from browser_agent.defaults import DEFAULT_SEARCH_ENGINE_URL
from browser_agent.dom.handles import element_handle
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ActionError, ElementNotFoundError
from browser_agent.sensitive import Secrets

__all__ = ["DEFAULT_SEARCH_ENGINE_URL", "ActionContext", "ControllerSettings"]


@dataclass(frozen=True, slots=True)
class ControllerSettings:
    """Knobs of the built-in actions."""

    search_engine_url: str = DEFAULT_SEARCH_ENGINE_URL
    action_timeout_s: float = 60.0
    max_wait_s: float = 10.0
    extract_max_chars: int = 2_000  # the extraction model's answer, cut: it stays in later requests
    extract_passage_tokens: int = 400  # the passages returned as the result, without a model
    extract_llm_passage_tokens: int = 600  # the passages the extraction model is given


@dataclass(slots=True)
class ActionContext:
    """What a running action can use: the session, its current page, the element behind an index,
    the extraction LLM, the sensitive data and the files it may upload.

    Ask for it by annotating a parameter ``ctx: ActionContext``; it is never part of the model's schema.
    """

    session: BrowserSession
    snapshot: DomSnapshot | None = None
    extraction_llm: BaseChatModel | None = None
    sensitive_data: Secrets = field(default_factory=Secrets)
    allowed_files: tuple[Path, ...] = ()
    settings: ControllerSettings = field(default_factory=ControllerSettings)
    # The actions are an agent's model's choice: the checks that catch a model's slips (a form sent with
    # its fields unset) apply. Replays, workflows and direct calls run what they are given.
    model_chose: bool = False
    # The step's goal in the model's words: a click on an element it does not name, while it names
    # another, is held back once (``controller/actions/goal_guard.py``).
    goal: str = ""
    # The agent's task: a click that would send a form before the part the task asks to expand is open
    # is held back once (``controller/actions/expand_guard.py``).
    task: str = ""

    @property
    def page(self) -> Page:
        """The current tab."""
        return self.session.page

    async def current_snapshot(self) -> DomSnapshot:
        """The snapshot indices refer to: the one the model saw.

        Raises:
            ElementNotFoundError: no page was captured yet in this session.
        """
        if self.snapshot is None:
            self.snapshot = self.session.last_snapshot
        if self.snapshot is None:
            # An index means an element of a page the model saw; guessing one is not allowed.
            raise ElementNotFoundError(
                "no page has been captured yet, so no index means anything; look at the page first "
                "(the next state shows it), then use an index from it."
            )
        return self.snapshot

    async def node(self, index: int) -> ElementNode:
        """The element named ``index`` in the current snapshot.

        Raises:
            ElementNotFoundError: no element has that index.
        """
        snapshot = await self.current_snapshot()
        found = snapshot.selector_map.get(index)
        if found is None:
            raise ElementNotFoundError(
                f"element {index} is not on the page; {snapshot.describe_indices()}. "
                "Use an index from the current page state."
            )
        return found

    async def element(self, index: int) -> tuple[ElementNode, ElementHandle]:
        """The element named ``index`` and a live Playwright handle to it.

        Raises:
            ElementNotFoundError: no element has that index, or it has left the page.
        """
        found = await self.node(index)
        return found, await element_handle(await self.current_snapshot(), found)

    def allowed_file(self, path: str) -> Path:
        """``path`` resolved, if it is one of the allowed files or inside an allowed folder.

        Raises:
            ActionError: the path is not allowed, or the file does not exist.
        """
        target = Path(path).expanduser().resolve()
        roots = [p.expanduser().resolve() for p in self.allowed_files]
        if not any(target == root or root in target.parents for root in roots):
            offered = ", ".join(str(r) for r in roots) or "none"
            raise ActionError(f"{path} is not a file you may upload; allowed files: {offered}.")
        if not target.is_file():
            raise ActionError(f"{path} does not exist or is not a file; choose one of the allowed files.")
        return target

    def redact(self, text: str) -> str:
        """``text`` with every secret value (raw or encoded) replaced by its placeholder."""
        return self.sensitive_data.redact(text)

    def quote(self, text: str, cap: int | None = None) -> str:
        """``text`` redacted, cut to ``cap`` characters when given, then quoted as ``repr`` quotes it, for a
        result or an error message. Redacted first, so that no quoted copy of a secret is ever made, nor a
        part of one that no longer reads as the secret."""
        return repr(self.redact(text)[:cap])
