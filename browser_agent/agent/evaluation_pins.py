"""What the ``json_schema`` grammar writes for the model in its reply's ``evaluation_previous_goal``.

Before the model's first reply there is no previous goal of its own, yet a small model asked to evaluate
one wrote "Failed" in 119 of 120 first replies, then a made-up failure ("the page did not change after
clicking ONE") and acted on it. Until it has answered once, the grammar writes ``FIRST_EVALUATION``
instead (a bare "Unknown" was copied into the goal, and the episode given up). Its words matter: the
six-token "None yet: first step." did as well on MiniWoB++, but on long real pages the model then
clicked away from the article first and answered no question of ten (four with this text). With
llama.cpp the text is sent as the start of the reply, read rather than decoded (``prefill_reply``).
After that, ``verdict`` writes what the last step's actions did. The rest of the reply is the model's.
"""

from __future__ import annotations

from browser_agent.record import AgentStep

__all__ = ["FIRST_EVALUATION", "Pins", "verdict"]

Pins = tuple[tuple[str, str], ...]  # (dotted path of a reply field, the only text the grammar admits)

_EVALUATION = "current_state.evaluation_previous_goal"
FIRST_EVALUATION: Pins = ((_EVALUATION, "None yet: this is the first step; start on the task."),)


def verdict(step: AgentStep) -> Pins:
    """The next reply's evaluation, pinned to what the step's actions did: "Success" when all ran,
    "Failed" when one failed, a hold too; nothing (the model's own words) when none ran.

    A small model's own verdict was "Failed" after 43 of 47 steps whose actions all worked (MiniWoB++
    development half, seeds 0 and 1: a field read back holding the typed text, a box now checked), and it
    then acted on the failure it made up: typed again, or ended the run with ``done``. What the actions
    did is known; the model goes on from it. A hold (``HeldBackError``) is pinned "Failed" as well: with
    "Held back: nothing was done; the outcome above says why and what to do instead." the model went
    back a step where it had gone on ("nothing is selected", click-menu 6) and took the task for done
    after a held-back ``done`` (email-inbox 16); email-inbox 4/18 either way."""
    if step.step == 0 or step.model_output is None or not step.results:
        return ()
    failed = step.error is not None or any(r.error is not None for r in step.results)
    return ((_EVALUATION, "Failed" if failed else "Success"),)
