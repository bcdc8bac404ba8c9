"""One step of the loop, in named phases: observe, decide, act, record."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage

from browser_agent.agent.history import AgentStep, StepTimings, StepUsage
from browser_agent.agent.models import AgentOutput, build_output_model
from browser_agent.browser import BrowserSession, BrowserState
from browser_agent.controller import ActionResult
from browser_agent.dom.fingerprint import fingerprint_of
from browser_agent.dom.models import DomSnapshot
from browser_agent.errors import ActionError, ModelError
from browser_agent.llm import StructuredReply, ask_structured

if TYPE_CHECKING:
    from browser_agent.agent.agent import Agent

__all__ = ["StepRunner"]


class StepRunner:
    """Runs steps for one agent on one session."""

    def __init__(self, agent: Agent, session: BrowserSession) -> None:
        self.agent = agent
        self.session = session
        self.last_results: list[dict[str, Any]] = []
        self._output_models: dict[tuple[type[Any], ...], type[AgentOutput]] = {}

    async def run_initial_actions(self) -> None:
        """Run ``settings.initial_actions`` without the model; recorded as step 0."""
        raw = self.agent.settings.initial_actions
        if not raw:
            return
        controller = self.agent.controller
        actions = [controller.parse_action(a) for a in raw]
        start = self.agent.now()
        state = await self.session.state()
        results = await self._act(actions)
        step = AgentStep(step=0, url=state.url, title=state.title)
        step.model_output = self.agent.redacted({"action": [a.model_dump(mode="json") for a in actions]})
        self._record_results(step, results, state.snapshot)
        step.timings = StepTimings(total_ms=(self.agent.now() - start) * 1000)
        self.agent.history.append(step)
        self.agent.messages.add_memo(0, step.model_output, step.results)
        self.last_results = step.results

    async def step(self, number: int, max_steps: int, plan: str | None) -> AgentStep:
        agent = self.agent
        step = AgentStep(step=number, plan=plan)
        start = agent.now()
        try:
            state = await self.session.state(screenshot=agent.settings.use_vision)
        except ActionError as exc:  # the current tab closed or crashed: say so, let the model recover
            self.session.last_snapshot = None
            step.error = str(exc)
            return self._finish(step, start, agent.now(), agent.now())
        step.url, step.title = state.url, state.title
        observed = agent.now()
        reply = await self._decide(step, state, number, max_steps, plan)
        decided = agent.now()
        if reply is not None:
            results = await self._act(reply.parsed.action)
            step.model_output = agent.redacted(reply.parsed.model_dump(mode="json"))
            self._record_results(step, results, state.snapshot)
        step.timings.state_ms = (observed - start) * 1000
        return self._finish(step, observed, decided, agent.now(), start=start)

    async def _decide(
        self, step: AgentStep, state: BrowserState, number: int, max_steps: int, plan: str | None
    ) -> StructuredReply[AgentOutput] | None:
        agent, settings = self.agent, self.agent.settings
        text = agent.messages.state_text(
            state, step=number, max_steps=max_steps, plan=plan, last_results=self.last_results
        )
        messages = agent.messages.build(text, state.screenshot_b64)
        self._save_conversation(number, messages)
        output_model = self._output_model(state.url)
        try:
            reply = await ask_structured(
                agent.llm,
                messages,
                output_model,
                method=settings.tool_calling_method,
                max_corrections=settings.max_corrections,
                retry=settings.retry_policy(),
            )
        except ModelError as exc:
            step.error = agent.messages.redact(f"{type(exc).__name__}: {exc}")
            return None
        step.usage = StepUsage(input_tokens=reply.usage.input_tokens, output_tokens=reply.usage.output_tokens)
        return reply

    def _output_model(self, url: str) -> type[AgentOutput]:
        """The step's output model; built once per set of offered actions (schemas are costly)."""
        controller = self.agent.controller
        key = tuple(controller.action_models(url))
        model = self._output_models.get(key)
        if model is None:
            model = build_output_model(controller.action_union(url), self.agent.settings.max_actions_per_step)
            self._output_models[key] = model
        return model

    async def _act(self, actions: list[Any]) -> list[ActionResult]:
        agent = self.agent
        return await agent.controller.run(
            actions,
            self.session,
            extraction_llm=agent.settings.page_extraction_llm,
            sensitive_data=agent.sensitive_data,
            allowed_files=agent.settings.allowed_files,
        )

    def _record_results(
        self, step: AgentStep, results: list[ActionResult], snapshot: DomSnapshot | None
    ) -> None:
        step.results = [self.agent.redacted(r.model_dump(mode="json", exclude={"element"})) for r in results]
        step.interacted = [
            self.agent.redacted(fingerprint_of(r.element, snapshot).to_dict())
            if r.element is not None and snapshot is not None
            else None
            for r in results
        ]

    def _finish(
        self, step: AgentStep, observed: float, decided: float, acted: float, *, start: float | None = None
    ) -> AgentStep:
        begin = observed if start is None else start
        step.timings.model_ms = (decided - observed) * 1000
        step.timings.actions_ms = (acted - decided) * 1000
        step.timings.total_ms = (acted - begin) * 1000
        self.agent.record_outcome(step)
        self.agent.messages.add_memo(step.step, step.model_output, step.results)
        self.last_results = step.results + ([{"action": "step", "error": step.error}] if step.error else [])
        self.agent.log(
            "step %d: %s",
            step.step,
            ", ".join(
                f"{r.get('action')}{' FAILED: ' + str(r['error']) if r.get('error') else ''}"
                for r in step.results
            )
            or step.error
            or "no actions",
        )
        return step

    def _save_conversation(self, number: int, messages: list[BaseMessage]) -> None:
        folder = self.agent.settings.save_conversation_path
        if folder is None:
            return
        Path(folder).mkdir(parents=True, exist_ok=True)
        lines = []
        for message in messages:
            content = message.content if isinstance(message.content, str) else str(message.content)
            lines.append(f"--- {message.type} ---\n{content}")
        Path(folder, f"step_{number:03d}.txt").write_text(self.agent.messages.redact("\n".join(lines)))
