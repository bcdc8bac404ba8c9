"""``TaskSpec``: one task of a batch, and reading a batch from JSON Lines.

A spec is a task string or a small model. Its secrets are ``SecretStr`` (never shown by ``repr``), or
names of environment variables read where the agent runs (``sensitive_env``), so that a spec sent to
another machine carries no secret the user did not put in it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from browser_agent.batch.judge import Judge
from browser_agent.errors import UserError
from browser_agent.user_files import UserFileError, read_json_lines, validation_message

__all__ = ["TaskSpec", "as_specs", "read_specs"]


class TaskSpec(BaseModel):
    """One task for ``run_many``.

    Attributes:
        task: What to do, in plain words.
        id: A stable name for the task (results and history files use it); ``task-N`` when omitted.
        start_url: Opened before the first step, without asking the model.
        max_steps: Steps allowed; the batch's default when omitted.
        allowed_domains: Domain patterns the agent may visit (``*.example.com``); all when omitted.
        sensitive_data: ``{name: value}`` secrets typed for ``<secret>name</secret>`` placeholders.
        sensitive_env: ``{name: ENV_VAR}``: secrets read from the environment where the agent runs.
        output_model: The shape of the final answer: ``done`` then takes ``data`` of this model;
            ``history.structured_output()`` returns it, and the final result is its JSON.
        judge: Makes the task an episode of an evaluation (``batch/judge.py``): it prepares the page and
            may say what the agent is told, ends the run when the page ends the episode, and gives
            ``TaskOutcome.verdict``. Set in code only; a task file cannot name one.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)

    task: str = Field(min_length=1)
    id: str | None = Field(default=None, min_length=1)
    start_url: str | None = None
    max_steps: int | None = Field(default=None, ge=1)
    allowed_domains: tuple[str, ...] | None = None
    sensitive_data: dict[str, SecretStr] | None = None
    sensitive_env: dict[str, str] | None = None
    output_model: type[BaseModel] | None = Field(default=None, exclude=True)
    judge: Judge | None = Field(default=None, exclude=True)

    @property
    def task_id(self) -> str:
        """The spec's id (``as_specs`` gives every spec one)."""
        return self.id or "task"

    def secrets(self, environ: Mapping[str, str] | None = None) -> dict[str, str]:
        """The clear-text secrets of this task, environment variables resolved here.

        Raises:
            UserError: a variable named in ``sensitive_env`` is not set.
        """
        env = os.environ if environ is None else environ
        found = {name: value.get_secret_value() for name, value in (self.sensitive_data or {}).items()}
        for name, variable in (self.sensitive_env or {}).items():
            if variable not in env:
                raise UserError(
                    f"Task {self.task_id!r}: the secret {name!r} comes from the environment variable "
                    f"{variable}, which is not set where the agent runs; set it there."
                )
            found[name] = env[variable]
        return found


def as_specs(items: Iterable[TaskSpec | str]) -> list[TaskSpec]:
    """Turn task strings into specs and give every spec an id (``task-N``, N counting from 1).

    Raises:
        UserError: two specs share an id, or an item is neither a string nor a ``TaskSpec``.
    """
    specs: list[TaskSpec] = []
    seen: dict[str, int] = {}
    for number, item in enumerate(items, start=1):
        if isinstance(item, str):
            item = TaskSpec(task=item)
        elif not isinstance(item, TaskSpec):
            raise UserError(f"Task {number} is a {type(item).__name__}; give a task string or a TaskSpec.")
        if item.id is None:
            item = item.model_copy(update={"id": f"task-{number}"})
        if item.task_id in seen:
            raise UserError(
                f"Tasks {seen[item.task_id]} and {number} share the id {item.task_id!r}; ids name results "
                "and history files, so give each task its own."
            )
        seen[item.task_id] = number
        specs.append(item)
    return specs


def read_specs(path: Path) -> list[TaskSpec]:
    """Read a JSON Lines file: each line a task string or an object with ``TaskSpec`` fields.

    Blank lines are skipped; a task without an id is named after its line (``line-N``), so the ids stay
    the same when the file is read again.

    Raises:
        UserError: the file cannot be read, or a line is not a valid task (its number is given).
    """
    specs: list[TaskSpec] = []
    for number, data in read_json_lines(path, what="task file"):
        try:
            spec = TaskSpec(task=data) if isinstance(data, str) else TaskSpec.model_validate(data)
        except ValidationError as exc:
            raise UserFileError(
                f"task file {path}, line {number}: not a task ({validation_message(exc)}). Each line is "
                'a JSON string or an object such as {"id": "t1", "task": "...", "start_url": "https://..."}.'
            ) from None
        specs.append(spec if spec.id else spec.model_copy(update={"id": f"line-{number}"}))
    if not specs:
        raise UserFileError(f"task file {path} holds no task; write one JSON task per line.")
    return _named(path, specs)


def _named(path: Path, specs: list[TaskSpec]) -> list[TaskSpec]:
    """``as_specs`` of a file's tasks, its refusal (two tasks sharing an id) naming the file."""
    try:
        return as_specs(specs)
    except UserError as exc:
        raise UserFileError(f"task file {path}: {exc}") from None
