"""``ask_human``: an action offered to the model only while a UI is attached.

The question goes to the UI (redacted like every text that leaves the process); the person's answer
comes back as the action's result. With no answer in time the action fails with a message that tells
the model to go on without one, so an unattended run never hangs on a question.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
from collections.abc import Callable
from typing import Annotated

from browser_agent.controller import ActionResult, Controller
from browser_agent.controller.context import ActionContext
from browser_agent.controller.placeholders import Placeholders
from browser_agent.errors import ActionError, UserError
from browser_agent.ui.viewers import Event

__all__ = ["ASK_HUMAN", "DEFAULT_ANSWER_TIMEOUT_S", "HumanChannel", "with_ask_human"]

ASK_HUMAN = "ask_human"
DEFAULT_ANSWER_TIMEOUT_S = 300.0
_MARGIN_S = 2.0  # the wait ends before the controller's own bound on the action
_MAX_ANSWER = 4_000

_DESCRIPTION = (
    "Ask the person watching this run a question and wait for the answer (a choice only they can make, "
    "a detail the task leaves open, a code sent to them). Use it rarely; never for what the page shows."
)


class HumanChannel:
    """Questions to the UI and their answers: one question open at a time."""

    def __init__(
        self, publish: Callable[[Event], None], *, timeout_s: float = DEFAULT_ANSWER_TIMEOUT_S
    ) -> None:
        self.timeout_s = timeout_s
        self._publish = publish
        self._ids = itertools.count(1)
        self._open: tuple[int, asyncio.Future[str]] | None = None

    @property
    def pending(self) -> int | None:
        """The id of the question waiting for an answer, if any."""
        return self._open[0] if self._open is not None else None

    async def ask(self, question: str, timeout_s: float) -> str | None:
        """Show ``question`` (already redacted) in the UI and wait for the answer; None past ``timeout_s``."""
        if self._open is not None:
            raise ActionError("A question is already waiting for the person's answer; wait for it.")
        number = next(self._ids)
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._open = (number, answer)
        self._publish({"type": "question", "id": number, "question": question, "timeout_s": timeout_s})
        try:
            return await asyncio.wait_for(answer, timeout_s)
        except TimeoutError:
            return None
        finally:
            self._open = None
            self._publish({"type": "question_closed", "id": number})

    def answer(self, number: int, text: str) -> None:
        """Answer question ``number``.

        Raises:
            UserError: no such question is waiting (answered already, or timed out).
        """
        if self._open is None or self._open[0] != number or self._open[1].done():
            raise UserError(f"Question {number} is not waiting for an answer (answered, or timed out).")
        self._open[1].set_result(text[:_MAX_ANSWER])


def with_ask_human(controller: Controller | None, channel: HumanChannel) -> Controller:
    """A copy of ``controller`` (the built-ins when None) that also offers ``ask_human`` through ``channel``.

    Raises:
        UserError: ``controller`` already has an action named ``ask_human``.
    """
    base = controller or Controller()
    if ASK_HUMAN in base.registry:
        raise UserError(f"The controller already has an action named {ASK_HUMAN!r}; the UI adds its own.")
    twin = copy.copy(base)
    twin.registry = base.registry.copy()

    async def ask_human(question: Annotated[str, Placeholders.KEPT], ctx: ActionContext) -> ActionResult:
        """Ask the person a question.

        Args:
            question: The question, short and self-contained (the person has not read the page).
        """
        limit = max(1.0, min(channel.timeout_s, ctx.settings.action_timeout_s - _MARGIN_S))
        answer = await channel.ask(ctx.redact(question), limit)
        if answer is None:
            raise ActionError(
                f"No answer came within {limit:g} s; go on without it, or end the task with done."
            )
        return ActionResult(action=ASK_HUMAN, extracted_content=f"The person answered: {answer}")

    twin.registry.add(ask_human, _DESCRIPTION, name=ASK_HUMAN)
    return twin
