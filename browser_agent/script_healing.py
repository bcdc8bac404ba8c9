"""What an exported script written with ``--heal`` calls when one of its locators fails: the healing of
``replay --heal``, for that one step.

A plain exported script needs nothing but Playwright; a ``--heal`` one imports this module, launches
Chromium with ``healing_args()`` (a DevTools port on 127.0.0.1, so that a second client can drive the
same browser) and puts each action on an element inside ``with healable(page, ...)``. When the locator
times out or matches several elements, the step is handed to a model with its recorded goal
(``playback.rescue_step``, the same question ``--heal`` asks): a browser session attaches to the
script's browser over that port, fenced to the origin of the page the step is on, the model's one action
is run there, and the script goes on after the ``with`` block. When healing cannot help, the script
stops on the locator's own error, with a note saying why.

The model is the one ``use_model`` set in this process, else the one ``BROWSER_AGENT_MODEL`` names. The
secrets a step types are read from the script's environment variables (``BA_SECRET_<NAME>``) and
redacted from all the model is shown and all that is logged.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import re
import socket
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final

from langchain_core.language_models import BaseChatModel
from playwright.sync_api import Error as PlaywrightSyncError
from playwright.sync_api import Page as SyncPage

from browser_agent import artifacts
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.domains import is_url_allowed, origin_of
from browser_agent.controller import Controller
from browser_agent.errors import BrowserAgentError, first_line
from browser_agent.export.inputs import ENV_PREFIX, secret_env
from browser_agent.models import chat_model_from_env
from browser_agent.playback.rescue import rescue_step
from browser_agent.record import ActionCall
from browser_agent.sensitive import Secrets

__all__ = ["WAIT_ENV", "healable", "healing_args", "healing_wait_ms", "use_model"]

logger = logging.getLogger("browser_agent")

WAIT_ENV: Final = f"{ENV_PREFIX}HEAL_WAIT_MS"
"""How long a locator of a ``--heal`` script waits before its step is handed to the model."""
_WAIT_MS: Final = 10_000
_POLL_MS: Final = 100
_PLACEHOLDER = re.compile(r"<secret>\s*([A-Za-z0-9_.\-]+)\s*</secret>")


@dataclass
class _Healing:
    """This process's healing: the browser's DevTools port, and the model ``use_model`` set."""

    port: int | None = None
    model: BaseChatModel | None = None


_HEALING = _Healing()


def use_model(llm: BaseChatModel | None) -> None:
    """Heal with ``llm`` in this process (``None``: the model ``BROWSER_AGENT_MODEL`` names)."""
    _HEALING.model = llm


def healing_args() -> list[str]:
    """Chromium's flags for a browser the healing can reach: a DevTools port on 127.0.0.1, chosen free.

    Any process of this machine may attach to that port while the browser runs: give ``--heal`` scripts
    only to machines whose users you trust with the browser.
    """
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        _HEALING.port = int(probe.getsockname()[1])
    return [f"--remote-debugging-port={_HEALING.port}", "--remote-debugging-address=127.0.0.1"]


def healing_wait_ms() -> float:
    """How long a locator waits before its step is healed: ``BA_HEAL_WAIT_MS``, else 10 s."""
    raw = os.environ.get(WAIT_ENV, "").strip()
    try:
        wait = float(raw) if raw else _WAIT_MS
    except ValueError:
        wait = _WAIT_MS
    return wait if wait > 0 else _WAIT_MS


@contextmanager
def healable(
    page: SyncPage, action: Mapping[str, Any], element: str, goal: str = "", *, opens_tab: bool = False
) -> Iterator[None]:
    """Run the block; when Playwright fails in it (the locator timed out, or matched several elements),
    hand the step to the model and go on after the block.

    Args:
        page: The script's page the step acts on.
        action: The recorded action, as ``{"action": name, **params}`` with this run's values.
        element: The recorded element, in words (the model reads why it is asked).
        goal: What the step was for, in words (the recorded ``next_goal``).
        opens_tab: The recorded step opened a tab: the healed one must too (the script goes on in the
            newest tab of ``page``'s context).
    """
    tabs = len(page.context.pages)
    try:
        yield
    except PlaywrightSyncError as exc:
        if page.is_closed():
            raise
        if opens_tab and len(page.context.pages) > tabs:
            return  # the click took, and its tab came late: doing the step again would open another
        reason = f"the script could not use the element it recorded, {element}: {first_line(exc)}"
        failure = _heal(page, action, reason, goal)
        if failure is None and opens_tab and not _tab_opened(page, tabs):
            failure = "the healed step opened no tab, and the recorded one did"
        if failure is not None:
            exc.add_note(f"browser-agent could not heal this step: {failure}")
            raise
        logger.warning("browser-agent healed a step: %s", artifacts.redacted(reason))


def _tab_opened(page: SyncPage, tabs: int) -> bool:
    """Whether ``page``'s context has more than ``tabs`` tabs, waiting for the news of one opened."""
    waited = 0.0
    while len(page.context.pages) <= tabs and waited < healing_wait_ms():
        page.wait_for_timeout(_POLL_MS)  # lets Playwright take in the events of the healing
        waited += _POLL_MS
    return len(page.context.pages) > tabs


def _heal(page: SyncPage, action: Mapping[str, Any], reason: str, goal: str) -> str | None:
    """Hand the step to the model in a session attached to the script's browser; why not, or None."""
    if _HEALING.port is None:
        return "the browser was not launched with healing_args(), so no session can attach to it"
    try:
        llm = _HEALING.model or chat_model_from_env()
    except BrowserAgentError as exc:
        return str(exc)
    if llm is None:
        return "no model to heal with: set BROWSER_AGENT_MODEL=PROVIDER:NAME"
    try:
        secrets = artifacts.remember(_secrets_of(action))
    except BrowserAgentError as exc:  # a secret too short to redact, or a name no placeholder can have
        return str(exc)
    cdp = page.context.new_cdp_session(page)
    try:
        target = str(cdp.send("Target.getTargetInfo")["targetInfo"]["targetId"])
    finally:
        cdp.detach()
    step = _Step(ActionCall.model_validate(dict(action)), reason, goal, origin_of(page.url), target)
    # Playwright's sync API holds this thread's event loop: the session runs on a loop of its own.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as worker:
        try:
            return worker.submit(asyncio.run, _rescue(_HEALING.port, llm, step, secrets)).result()
        except Exception as exc:  # the healing's own failure (no attach, a model error): the step's stands
            return secrets.redact(f"the healing failed: {first_line(exc)}")


@dataclass(frozen=True, slots=True)
class _Step:
    """The step to heal: the recorded action, why, what for, where (an origin) and in which tab."""

    action: ActionCall
    reason: str
    goal: str
    origin: str
    target: str


async def _rescue(port: int, llm: BaseChatModel, step: _Step, secrets: Secrets) -> str | None:
    """The model's one action on the script's tab, fenced to its origin; why it failed, or None."""
    config = BrowserConfig(cdp_url=f"http://127.0.0.1:{port}")
    async with BrowserSession(config) as session:
        if not await _switch_to(session, step.target):
            return "the script's tab was not found in its browser"
        quiet = _Unfenced()
        logger.addFilter(quiet)  # the fence covers the tab, which is all a step touches
        try:
            await session.fence_to((step.origin,))
        finally:
            logger.removeFilter(quiet)
        rescue = await rescue_step(llm, step.action, step.reason, session, Controller(), secrets, step.goal)
        if rescue.result.error:
            return secrets.redact(rescue.result.error)
        if not is_url_allowed(session.page.url, (step.origin,)):
            return f"the healed step left {step.origin}"
    return None


async def _switch_to(session: BrowserSession, target: str) -> bool:
    """Make the tab whose DevTools target is ``target`` the session's current one."""
    for tab in await session.tabs():
        page = await session.switch_tab(tab.tab_id)
        cdp = await page.context.new_cdp_session(page)
        try:
            info = await cdp.send("Target.getTargetInfo")
        finally:
            await cdp.detach()
        if info["targetInfo"]["targetId"] == target:
            return True
    return False


class _Unfenced(logging.Filter):
    """Drops the advice to fence a session before it starts: an attached session cannot."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.funcName != "fence_to"


def _secrets_of(action: Mapping[str, Any]) -> Secrets:
    """The script's secrets (its ``BA_SECRET_<NAME>`` variables): each redacted from what the model is
    shown, and those the action's placeholders name filled in where it types them."""
    prefix = secret_env("x")[:-1]
    known = {key[len(prefix) :].lower(): value for key, value in os.environ.items() if key.startswith(prefix)}
    for value in action.values():
        for found in _PLACEHOLDER.finditer(value if isinstance(value, str) else ""):
            env = secret_env(found.group(1))
            if env in os.environ:
                known.pop(env[len(prefix) :].lower(), None)
                known[found.group(1)] = os.environ[env]
    return Secrets({name: value for name, value in known.items() if value})
