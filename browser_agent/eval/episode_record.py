"""One evaluated episode as one JSON line: ``EpisodeRecord``, how its failure is named, and reading a
results file back (to resume a run, to report it, to compare two).

A failure is named by how the episode ended, the first that applies:

* ``timeout``: the episode ran past its time limit, or its last step did;
* ``error``: an exception, a lost browser or model server, too many failed actions;
* ``invalid output``: the last step's reply never matched the schema, even after corrections;
* ``loop``: a step was refused for repeating the same actions on an unchanged page;
* ``wrong answer``: the run ended (done, or the page ended the episode) and the judge said no;
* ``step limit``: ``max_steps`` passed before the task was done;
* ``none``: the episode succeeded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from browser_agent.record import AgentHistory, AgentStep
from browser_agent.user_files import UserFileError, read_json_lines, validation_message

__all__ = [
    "FAILURE_KINDS",
    "EpisodeKey",
    "EpisodeRecord",
    "FailureKind",
    "failure_kind",
    "model_calls",
    "read_records",
]

FailureKind = Literal["wrong answer", "invalid output", "loop", "step limit", "timeout", "error", "none"]
FAILURE_KINDS: tuple[FailureKind, ...] = get_args(FailureKind)

EpisodeKey = tuple[str, int]
"""What names an episode in a results file: its task and its seed (a repetition's number for a suite)."""

# The first words of the errors the agent's loop records for these endings (agent/loops.py,
# agent/step_runner.py, agent/agent.py); tests/integration/test_eval_suite.py runs each for real.
_LOOP_ERROR = "Loop:"
_INVALID_OUTPUT = "ModelOutputError:"
_STEP_TIMEOUT = "The step took longer than"


class EpisodeRecord(BaseModel):
    """One line of an evaluation's results.

    Attributes:
        task: The task's name (a MiniWoB++ task such as ``click-button``, or a suite task's id).
        family: The group the task belongs to (report and compare sum over it).
        seed: The seed of a MiniWoB++ episode; the repetition's number for a suite task.
        success: What the judge said: the page's own reward > 0, or every check passed.
        reward: MiniWoB++'s raw reward (-1..1); for a suite, the share of checks that passed.
        steps: Steps the model took (the opening of the page not counted).
        model_calls: Calls to the model, corrections and retries included.
        failure: How the episode failed (see the module's docstring); ``none`` on success.
        detail: Why, in one line: the page's reason, the check that failed, the last error.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    task: str
    family: str = ""
    seed: int = 0
    success: bool
    reward: float = 0.0
    steps: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    seconds: float = 0.0
    failure: FailureKind = "none"
    detail: str | None = None
    goal: str = Field(default="", description="What the agent was told to do.")
    model: str | None = None
    history: str | None = None

    @property
    def key(self) -> EpisodeKey:
        return self.task, self.seed

    def line(self) -> str:
        """The record as one JSON line (no newline)."""
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False)


def model_calls(history: AgentHistory) -> int:
    """The model calls of a run: one per step that asked it, plus the corrections and retries."""
    return sum(1 + s.corrections + len(s.retries) for s in history.steps if _asked_model(s))


def _asked_model(step: AgentStep) -> bool:
    if step.step == 0:
        return False
    return step.model_output is not None or step.usage.total_tokens > 0 or step.timings.model_ms > 0


def failure_kind(history: AgentHistory, *, success: bool, timed_out: bool = False) -> FailureKind:
    """How an episode failed, from its history (see the module's docstring for the order)."""
    if success:
        return "none"
    asked = [s for s in history.steps if s.step > 0]
    last_error = (asked[-1].error or "") if asked else ""
    if timed_out or last_error.startswith(_STEP_TIMEOUT):
        return "timeout"
    if history.error or history.end_reason in ("error", "interrupted"):
        return "error"
    if last_error.startswith(_INVALID_OUTPUT):
        return "invalid output"
    if any((s.error or "").startswith(_LOOP_ERROR) for s in asked):
        return "loop"
    if history.is_done() or history.end_reason == "stopped":
        return "wrong answer"
    if history.end_reason == "max_steps":
        return "step limit"
    return "error"


def read_records(path: Path, *, missing_ok: bool = False) -> list[EpisodeRecord]:
    """The records of a results file; a line cut short by a killed run is skipped.

    Raises:
        UserError: the file cannot be read (unless ``missing_ok`` and it does not exist), or a whole
            line is JSON but not an episode record.
    """
    if missing_ok and not path.exists():
        return []
    lines = read_json_lines(path, what="results file", skip_cut=True)
    return [_record(path, number, data) for number, data in lines]


def _record(path: Path, number: int, data: Any) -> EpisodeRecord:
    try:
        return EpisodeRecord.model_validate(data)
    except ValidationError as exc:
        raise UserFileError(
            f"results file {path}, line {number}: not an episode record ({validation_message(exc)}). "
            "Give a file written by `browser-agent eval`."
        ) from None
