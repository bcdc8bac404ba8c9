"""One watched run: its state, its controls (pause, resume, stop, take over) and the hooks that feed
the timeline and point the live view at the agent's tab.

A pause while the model is asked lands at once (``Agent.pause`` cancels the call and the step is asked
again on resume: ``on_step_halted``); one while the agent reads the page or acts lets that step finish,
so the run is ``pausing`` until it ends. Only once ``paused`` may the person take over the tab. When
the run ends, the live view shows the page after its last action (``AgentHistory.final_screenshot``).
On resume, what they did is told to the model (``Agent.tell``). What they typed becomes a secret of the
run (``typed_1``, ``typed_2``, ... scoped to the site it was typed on) as each run of typing ends: the
page view, the model's prompts, the timeline, the saved history, the report and the log show its
placeholder from then on, and the live view masks it.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from browser_agent import artifacts
from browser_agent.agent import Agent, AgentHooks
from browser_agent.agent.hooks import StepPhase
from browser_agent.browser.domains import origin_of
from browser_agent.browser.watchdog import responds
from browser_agent.errors import UserError
from browser_agent.record import AgentHistory, AgentStep
from browser_agent.sensitive import MIN_SECRET_LENGTH
from browser_agent.ui.live import LiveView
from browser_agent.ui.takeover import InputEvent, TabNotAnswering, TakeoverLog, forward
from browser_agent.ui.timeline import marks_event, run_end_event, step_end_event, step_start_event
from browser_agent.ui.viewers import Hub

__all__ = ["RunControl", "RunState"]

RunState = Literal["idle", "running", "pausing", "paused", "stopping", "ended"]

_UNANSWERED_S = 30.0  # how long a tab that did not take an input is waited for before input is tried again


class RunControl:
    """The run the UI shows and controls (one at a time)."""

    def __init__(self, hub: Hub, live: LiveView) -> None:
        self.hub = hub
        self.live = live
        self.agent: Agent | None = None
        self.state: RunState = "idle"
        self._in_step = False
        self._step: int | None = None  # the step under way (its retries go in its card)
        self._takeover: TakeoverLog | None = None
        self._unanswered: asyncio.Task[bool] | None = None  # waits for a tab that did not take an input

    # -- attaching -------------------------------------------------------------------------------

    def attach(self, agent: Agent) -> None:
        """Show and control ``agent`` from now on (a new run: the timeline starts afresh)."""
        if self.agent is agent:
            return
        if self.state not in ("idle", "ended"):
            raise UserError("A run is already under way in this UI; stop it or wait for its end first.")
        self.agent, self.state, self._in_step, self._takeover = agent, "running", False, None
        self.hub.clear()
        self._follow(agent)
        self.hub.publish({"type": "run_start", "task": agent.history.task, "names": sorted(agent.secrets)})
        self._say_state()

    def hooks(self, chained: AgentHooks | None = None) -> AgentHooks:
        """Hooks that feed this control (and then call ``chained``'s, e.g. a console reporter's)."""
        then = chained or AgentHooks()

        async def start(agent: Any, number: int) -> None:
            self.attach(agent)
            self._in_step, self._step = True, number
            self.hub.publish(step_start_event(number, agent.max_steps))
            await then.step_start(agent, number)

        async def phase(agent: Any, number: int, name: StepPhase) -> None:
            self.hub.publish({"type": "phase", "step": number, "phase": name})
            self.live.hold(name != "decide")
            if name == "decide" and agent.session is not None and self.hub.watched:
                size = agent.session.page.viewport_size or {"width": 0, "height": 0}
                marks = marks_event(number, agent.session.last_snapshot, (size["width"], size["height"]))
                self.hub.publish(marks, keep=False)  # only the current step's marks matter
            await then.step_phase(agent, number, name)

        async def end(agent: Any, step: AgentStep) -> None:
            self._step_over()
            self.hub.publish(step_end_event(step))
            if self.state == "pausing":
                self._paused()
            await then.step_end(agent, step)

        async def halted(agent: Any, number: int, message: str) -> None:
            self._step_over()
            self.hub.publish({"type": "step_halted", "step": number, "message": message})
            if self.state == "pausing":
                self._paused()
            await then.step_halted(agent, number, message)

        def retry(agent: Any, message: str) -> None:
            # said once: in the card of the step under way (which its step_end does not repeat), or, out
            # of a step (the planner's), as a line of its own
            self.hub.publish({"type": "retry", "step": self._step, "message": message})
            then.retry(agent, message)

        async def run_end(agent: Any, history: AgentHistory) -> None:
            self.finished(history)
            await then.run_end(agent, history)

        return AgentHooks(
            on_step_start=start,
            on_step_end=end,
            on_retry=retry,
            on_run_end=run_end,
            on_step_phase=phase,
            on_step_halted=halted,
        )

    def _step_over(self) -> None:
        self._in_step, self._step = False, None
        self.live.hold(False)

    def finished(self, history: AgentHistory | None, error: str | None = None) -> None:
        """The run ended (``error``: it could not start, or failed; already redacted)."""
        if self.state == "ended":
            return
        self.state = "ended"
        self._end_takeover()
        self.live.hold(False)
        shot = history.final_screenshot if history is not None else None
        if shot is not None:
            self.live.show_end(shot.jpeg_b64, shot.width, shot.height)
        event = run_end_event(history) if history is not None else {"type": "run_end", "end_reason": "error"}
        if error:
            event["error"] = error
        self.hub.publish(event)
        self._say_state()

    # -- controls --------------------------------------------------------------------------------

    def pause(self) -> None:
        agent = self._running_agent()
        agent.pause()
        if self.state == "running":
            self.state = "pausing"
            if not self._in_step:
                self._paused()
            else:
                self._say_state()

    def resume(self) -> None:
        agent = self._running_agent()
        if self._takeover is not None:
            self._keep_typed(agent, self._takeover.take_typed(finish=True))
        if self._takeover is not None and agent.session is not None:
            note = self._takeover.note(agent.session.page.url)
            if note is not None:
                agent.tell(note)
                self.hub.publish({"type": "note", "text": agent.secrets.redact(note)})
        self._end_takeover()
        agent.resume()
        self.state = "running"
        self._say_state()

    def stop(self) -> None:
        agent = self._running_agent()
        if self._takeover is not None:
            self._keep_typed(agent, self._takeover.take_typed(finish=True))
        self._end_takeover()
        agent.stop()
        self.state = "stopping"
        self._say_state()

    async def take_over(self, raw: Any) -> None:
        """Forward one input event from the live view to the agent's tab.

        Raises:
            UserError: the run is not paused, or the event is not valid.
        """
        event = InputEvent.parse(raw)
        agent = self._running_agent()
        if self.state != "paused" or self._takeover is None or agent.session is None:
            raise UserError("Pause the run (and wait for its step to end) before taking over the page.")
        if self._unanswered is not None and not self._unanswered.done():
            raise UserError(
                "The tab still does not answer (a script of the page keeps it busy); this input was not "
                "sent. Resume to let the agent go on (it stops a script that never yields), or stop the run."
            )
        log, page = self._takeover, agent.session.page
        try:
            await forward(page, event, log)
        except TabNotAnswering:
            # until the tab answers again, input is refused at once instead of each waiting ANSWER_S
            self._unanswered = asyncio.get_running_loop().create_task(responds(page, _UNANSWERED_S))
            raise
        finally:
            self._keep_typed(agent, log.take_typed())

    def status(self) -> dict[str, Any]:
        return {"type": "state", "state": self.state}

    # -- inside ----------------------------------------------------------------------------------

    def _running_agent(self) -> Agent:
        if self.agent is None or self.state in ("idle", "ended"):
            raise UserError("No run is under way; start one first.")
        return self.agent

    def _end_takeover(self) -> None:
        self._takeover = None
        if self._unanswered is not None:
            self._unanswered.cancel()
            self._unanswered = None

    def _follow(self, agent: Agent) -> None:
        """Point the live view at ``agent``'s tab, masking the run's secrets (typed ones too)."""
        self.live.follow(
            lambda: agent.session.page if agent.session is not None else None, agent.secrets.values()
        )

    def _keep_typed(self, agent: Agent, typed: list[tuple[str, str]]) -> None:
        """Make each value the person typed a secret of ``agent``'s run, redacted from everything the
        process writes from now on. A value too short to redact without rewriting ordinary text is left
        out (no element description carries what was typed anyway)."""
        known = set(agent.secrets.values())
        added = False
        for value, url in typed:
            if len(value.strip()) < MIN_SECRET_LENGTH or value in known:
                continue
            number = 1
            while f"typed_{number}" in agent.secrets:
                number += 1
            agent.secrets.add(f"typed_{number}", value, domains=(origin_of(url),))
            known.add(value)
            added = True
        if added:
            artifacts.remember(agent.secrets)
            self._follow(agent)

    def _paused(self) -> None:
        agent = self._running_agent()
        self.state = "paused"
        url = agent.session.page.url if agent.session is not None else ""
        self._takeover = TakeoverLog(start_url=url)
        self._say_state()

    def _say_state(self) -> None:
        self.hub.publish(self.status())
