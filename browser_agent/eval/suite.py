"""A suite of your own tasks: one JSON object a line, each a task with the checks that judge it.

Example line (``docs/eval.md`` has the whole format)::

    {"id": "subscribe", "family": "forms", "task": "Subscribe ada@example.com to the newsletter",
     "start_url": "{site}/newsletter/", "max_steps": 6,
     "checks": [{"url_matches": "/subscribed"}, {"text": "Thanks"},
                {"js": "() => localStorage.getItem('subscribed') === 'ada@example.com'"}]}

A task has every field of a batch task (``TaskSpec``: id, task, start_url, max_steps, allowed_domains,
sensitive_data, sensitive_env) and besides: ``family`` (a group for the report), ``checks`` (at least
one; the episode succeeds when all pass), ``output_fields`` (``{"name": "string"|"integer"|"number"|
"boolean"|"strings"}``: ``done`` then answers with these fields, and an ``output`` check compares them).
``{site}`` anywhere in a line stands for the origin of the folder served with ``--site``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Literal, cast, get_args

from pydantic import BaseModel, ConfigDict, Field, JsonValue, ValidationError, create_model, model_validator

from browser_agent.batch import TaskSpec
from browser_agent.batch.spec import as_specs
from browser_agent.errors import UserError
from browser_agent.user_files import UserFileError, parse_json, read_text, validation_message

__all__ = ["CHECK_KINDS", "SITE", "Check", "CheckKind", "SuiteTask", "read_suite"]

SITE = "{site}"
"""Stands for the origin of the folder served with ``--site`` (``http://127.0.0.1:PORT``)."""

CheckKind = Literal["url", "url_matches", "text", "js", "output", "answer_contains"]
CHECK_KINDS: tuple[CheckKind, ...] = get_args(CheckKind)
_CHECK_HELP = (
    '{"url": "https://..."} (the final address), {"url_matches": "regex"}, {"text": "on the page"}, '
    '{"js": "() => predicate"}, {"output": value} (the structured answer) or '
    '{"answer_contains": "text"} (the final answer)'
)
_FIELD_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "strings": list[str],
}


class Check(BaseModel):
    """One condition on how an episode ended; written as a one-key object such as ``{"text": "Thanks"}``."""

    model_config = ConfigDict(frozen=True)

    kind: CheckKind
    value: JsonValue

    @model_validator(mode="before")
    @classmethod
    def _from_one_key(cls, data: Any) -> Any:
        if isinstance(data, dict) and set(data) == {"kind", "value"}:
            return data
        if not isinstance(data, dict) or len(data) != 1 or next(iter(data)) not in CHECK_KINDS:
            raise ValueError(f"a check is one of {_CHECK_HELP}; got {json.dumps(data)[:120]}")
        [(kind, value)] = data.items()
        if kind != "output" and not (isinstance(value, str) and value):
            raise ValueError(f'the check "{kind}" takes a non-empty string; got {json.dumps(value)[:80]}')
        if kind == "url_matches":
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"url_matches {value!r} is not a regular expression: {exc}") from None
        return {"kind": kind, "value": value}

    def describe(self) -> str:
        """The check as it was written, in one short line."""
        return f"{self.kind} {json.dumps(self.value, ensure_ascii=False)[:80]}"


class SuiteTask(TaskSpec):
    """A batch task with the checks that judge it, a family, and optionally the fields of its answer."""

    family: str = ""
    checks: tuple[Check, ...] = Field(min_length=1)
    output_fields: dict[str, Literal["string", "integer", "number", "boolean", "strings"]] | None = None

    @model_validator(mode="after")
    def _output_checks_need_fields_or_text(self) -> SuiteTask:
        structured = [c for c in self.checks if c.kind == "output" and not isinstance(c.value, str)]
        if structured and not self.output_fields:
            raise ValueError(
                'an "output" check with an object or number needs "output_fields" (the answer\'s '
                "fields); without them the answer is text and the check compares it with a string"
            )
        return self

    def with_answer_model(self) -> SuiteTask:
        """The task with ``output_model`` built from ``output_fields`` (itself when it has none)."""
        if not self.output_fields:
            return self
        fields: dict[str, Any] = {
            name: (_FIELD_TYPES[kind], ...) for name, kind in self.output_fields.items()
        }
        name = "Answer_" + re.sub(r"\W", "_", self.task_id)
        model = create_model(name, **fields)
        return self.model_copy(update={"output_model": model})


def read_suite(path: Path, *, site: str | None = None) -> list[SuiteTask]:
    """Read a suite: one task a line (blank lines and lines starting with ``//`` skipped).

    Args:
        path: The JSON Lines file.
        site: The origin that ``{site}`` stands for; a suite that uses ``{site}`` needs it.

    Raises:
        UserError: the file cannot be read, holds no task, a line is not a valid task (its number and
            what is wrong are said), two tasks share an id, or ``{site}`` is used without a site.
    """
    lines = read_text(path, what="suite").splitlines()
    tasks: list[SuiteTask] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        if SITE in line and site is None:
            raise UserFileError(
                f"suite {path}, line {number} uses {SITE}: serve the site's folder with --site DIR."
            )
        task = _parse_line(path, number, line.replace(SITE, site or SITE))
        tasks.append(task if task.id else task.model_copy(update={"id": f"line-{number}"}))
    if not tasks:
        raise UserFileError(
            f"suite {path} holds no task; write one JSON object a line with a task and its checks."
        )
    try:
        specs = as_specs(tasks)
    except UserError as exc:  # two tasks sharing an id
        raise UserFileError(f"suite {path}: {exc}") from None
    return [cast(SuiteTask, spec).with_answer_model() for spec in specs]


def _parse_line(path: Path, number: int, line: str) -> SuiteTask:
    data = parse_json(line, f"suite {path}, line {number},")
    try:
        return SuiteTask.model_validate(data)
    except ValidationError as exc:
        raise UserFileError(
            f"suite {path}, line {number}: {validation_message(exc, whole='the task')}. A line looks like "
            '{"id": "t1", "task": "...", "start_url": "https://...", "checks": [{"text": "Thanks"}]}.'
        ) from None
