"""Start runs from the UI's form, and replays of saved runs, with what the server was configured with.

The form says what to do; the model, the browser, the secrets' values and the outer fence come from
the server (the command line or the ``LiveServer`` arguments): the page only ever names secrets.
Every run is saved in the runs folder, its HTML report beside it, also when it fails.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from browser_agent.agent import Agent, AgentSettings
from browser_agent.browser import BrowserConfig
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.controller import Controller
from browser_agent.defaults import DEFAULT_MAX_STEPS
from browser_agent.errors import AgentRunError, UserError
from browser_agent.output import save_report
from browser_agent.playback import ReplayOptions, replay_fence
from browser_agent.playback.replayer import ReplayedAction
from browser_agent.record import AgentHistory, describe_call
from browser_agent.sensitive import SensitiveData
from browser_agent.ui.ask_human import HumanChannel, with_ask_human
from browser_agent.ui.runs import RunControl

__all__ = ["RunForm", "RunSetup", "secret_names", "start_replay", "start_run"]


class RunForm(BaseModel):
    """What the UI's form sends to start a run."""

    model_config = ConfigDict(extra="forbid")

    task: str = Field(min_length=1, max_length=10_000)
    start_url: str = Field(default="", max_length=2_000)
    allowed_domains: list[str] = Field(default_factory=list, max_length=50)
    max_steps: int = Field(default=DEFAULT_MAX_STEPS, ge=1, le=500)
    # None: the server's own (--step-timeout); a slow local model needs more than the default
    step_timeout_s: float | None = Field(default=None, gt=0, le=3_600)
    vision: bool = False
    secrets: list[str] = Field(default_factory=list, max_length=50)

    @field_validator("start_url")
    @classmethod
    def _web_address(cls, value: str) -> str:
        if value and not re.match(r"^https?://", value):
            raise ValueError("the start URL must begin with http:// or https://")
        return value

    @classmethod
    def parse(cls, raw: Any) -> RunForm:
        """Raises: UserError: the form is not valid (the message names the field)."""
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "form"
            raise UserError(f"{where}: {first['msg']}") from exc


@dataclass(slots=True)
class RunSetup:
    """What the server runs with. ``allowed_domains`` is the outer fence: a run's own list must be some
    of its patterns; with none, a run without a list of its own may go anywhere."""

    model: Callable[[], BaseChatModel]
    runs_dir: Path
    browser: BrowserConfig = field(default_factory=BrowserConfig)
    secrets: SensitiveData = field(default_factory=dict)
    allowed_domains: tuple[str, ...] | None = None
    settings: AgentSettings = field(default_factory=AgentSettings)


def secret_names(data: SensitiveData) -> list[str]:
    """The names of the secrets in ``data`` (domain-scoped ones included), never their values."""
    names: set[str] = set()
    for key, value in data.items():
        names.update(value) if isinstance(value, Mapping) else names.add(key)
    return sorted(names)


def _chosen(data: SensitiveData, names: list[str]) -> SensitiveData:
    unknown = sorted(set(names) - set(secret_names(data)))
    if unknown:
        raise UserError(f"Unknown secrets {unknown}; the server offers {secret_names(data)}.")
    chosen: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            inner = {n: v for n, v in value.items() if n in names}
            if inner:
                chosen[key] = inner
        elif key in names:
            chosen[key] = value
    return chosen


def _server_fences(setup: RunSetup) -> tuple[FenceSource, ...]:
    """What the server keeps every run to, replays included: each a limit (``browser/fence_rule.py``)."""
    return (
        FenceSource.limit("the server's fence", setup.allowed_domains),
        FenceSource.limit("the server's browser fence", setup.browser.allowed_domains),
        FenceSource.limit("the server's AgentSettings.allowed_domains", setup.settings.allowed_domains),
    )


def _fence(form: RunForm, setup: RunSetup) -> tuple[str, ...] | None:
    """The fence of a run the form starts: the form's list, a choice, inside the server's limits.

    Raises:
        UserError: the form's list is not within the server's fence.
    """
    own = tuple(d.strip() for d in form.allowed_domains if d.strip())
    return resolve_fence(
        FenceSource.choice("the form's allowed domains", own or None), *_server_fences(setup)
    )


def _history_file(runs_dir: Path, task: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    slug = re.sub(r"[^a-z0-9]+", "-", task.lower())[:40].strip("-") or "run"
    return runs_dir / f"{stamp}-{slug}.json"


def start_run(
    form: RunForm, setup: RunSetup, control: RunControl, channel: HumanChannel
) -> asyncio.Task[None]:
    """Build the agent the form asks for, show it in ``control``, and start it.

    Raises:
        UserError: a run is under way, or the form asks for what the server does not offer.
    """
    if control.state not in ("idle", "ended"):
        raise UserError("A run is already under way; stop it or wait for its end first.")
    path = _history_file(setup.runs_dir, form.task)
    answer_s = channel.timeout_s
    settings = run_settings(form, setup, path, answer_s)
    agent = Agent(
        form.task,
        setup.model(),
        controller=with_ask_human(Controller(action_timeout_s=answer_s + 5), channel),
        browser=setup.browser,
        settings=settings,
        sensitive_data=_chosen(setup.secrets, form.secrets),
        hooks=control.hooks(),
    )
    control.attach(agent)
    return asyncio.get_running_loop().create_task(_run(agent, form.max_steps, path, control), name="ui run")


def run_settings(form: RunForm, setup: RunSetup, path: Path, answer_s: float) -> AgentSettings:
    """The settings of a run from the form: the server's, with the form's choices. A step may wait for a
    person's answer (``ask_human``), so it is given that long and a minute more at least."""
    step_s = form.step_timeout_s or setup.settings.step_timeout_s
    return setup.settings.model_copy(
        update={
            "use_vision": form.vision,
            "record_screenshots": True,
            "initial_actions": [{"action": "go_to_url", "url": form.start_url}] if form.start_url else [],
            "allowed_domains": _fence(form, setup),
            "save_history_path": path,
            "step_timeout_s": max(step_s, answer_s + 60),
        }
    )


async def _run(agent: Agent, max_steps: int, path: Path, control: RunControl) -> None:
    history: AgentHistory = agent.history
    error: str | None = None
    try:
        history = await agent.run(max_steps=max_steps)
    except AgentRunError as exc:
        history, error = exc.history or agent.history, agent.secrets.redact(str(exc))
    except Exception as exc:  # a browser that cannot start, say: shown in the UI, not lost in a task
        error = agent.secrets.redact(f"{type(exc).__name__}: {exc}")
    finally:
        path.parent.mkdir(parents=True, exist_ok=True)
        history.save(path)
        save_report(history, path.with_suffix(".html"))
        control.finished(history, error)
        control.hub.publish({"type": "saved", "name": path.name})


def start_replay(history: AgentHistory, setup: RunSetup, control: RunControl) -> asyncio.Task[None]:
    """Replay a saved run (no model calls) in a browser of the server's, shown live, inside the server's
    fence: a history saved without a fence, or with a wider one, keeps to the server's.

    Raises:
        UserError: a run is under way, or the run's recorded fence is not within the server's.
    """
    if control.state not in ("idle", "ended"):
        raise UserError("A run is already under way; stop it or wait for its end first.")
    fence = replay_fence(history, ReplayOptions(), *_server_fences(setup))
    agent = Agent(history.task, setup.model(), browser=setup.browser, sensitive_data=setup.secrets)
    options = ReplayOptions(sensitive_data=agent.secrets, allowed_domains=fence)
    control.attach(agent)
    control.hub.publish({"type": "replay_start", "steps": len(history.steps)})

    def said(done: ReplayedAction) -> None:
        call = agent.secrets.redact(describe_call(done.action))
        message = agent.secrets.redact(done.message)
        control.hub.publish(
            {"type": "replayed", "step": done.step, "call": call, "status": done.status, "message": message}
        )

    async def replaying() -> None:
        error = None
        try:
            report = await agent.rerun_history(history, options, said)
            error = report.stopped
        except Exception as exc:  # shown in the UI
            error = agent.secrets.redact(f"{type(exc).__name__}: {exc}")
        control.finished(None, error)

    return asyncio.get_running_loop().create_task(replaying(), name="ui replay")
