"""The workflow file: a recorded run's steps with named inputs, versioned and validated.

A workflow is JSON (``*.workflow.json``)::

    {
      "format": "browser-agent-workflow",
      "version": 1,
      "task": "buy {quantity} '{product}' ... for {full_name} ({email})",
      "inputs": [{"name": "email", "default": "ada@example.com", "source": "typed",
                  "description": "typed into 'email'"}, ...],
      "steps": [{"action": "input_text", "params": {"index": 5, "text": "ada@example.com", "clear": true},
                 "inputs": {"text": "email"}, "target": {<fingerprint>}, "target_input": null,
                 "url": "http://127.0.0.1:8000/checkout", "title": "Checkout - Demo shop"}, ...],
      "secrets": ["pw"],
      "allowed_domains": ["http://127.0.0.1:*"],
      "recorded_result": "Order #1006 confirmed: ..."
    }

A step is one action as the agent ran it (``action``, ``params``; ``index`` is the element's number on
the recorded page, used only to read it), the element it acted on (``target``: the same fingerprint a
history keeps in ``interacted``), and where inputs go: ``inputs`` maps a parameter to the input whose
value replaces it whole; ``target_input`` names the input whose value names the element itself (the
link to click is the product's name); ``opened_tab`` whether the action opened a tab the run went on
in. Secrets stay ``<secret>name</secret>`` placeholders in ``params``
and are listed in ``secrets``; their values are given when the workflow runs, never stored.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from browser_agent import artifacts
from browser_agent.errors import UserError
from browser_agent.record.healing import HealRecord
from browser_agent.record.step import RecordedFingerprint
from browser_agent.user_files import UserFileError, check_version, read_model, validated
from browser_agent.workflow.file_format import FORMAT, FORMAT_VERSION

__all__ = ["FORMAT", "FORMAT_VERSION", "InputSource", "Workflow", "WorkflowInput", "WorkflowStep"]

INPUT_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
InputSource = Literal["typed", "selected", "url", "query", "element"]


class WorkflowInput(BaseModel):
    """One value the workflow takes by name; ``default`` is the value the recorded run used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=INPUT_NAME.pattern, description="Lower case, digits and _, e.g. email.")
    default: str = Field(description="The value of the recorded run, used when none is given.")
    source: InputSource = Field(
        description="typed into a field, selected in a list, an address opened, a search query, or the "
        "name of the element acted on (a link or button chosen by what it says)."
    )
    description: str = Field(default="", description="Where the value goes, in words.")


class WorkflowStep(BaseModel):
    """One recorded action, the element it acted on, and which inputs fill it."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    action: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)
    inputs: dict[str, str] = Field(
        default_factory=dict, description="parameter -> input name: the input's value replaces it whole"
    )
    target: RecordedFingerprint = None
    target_input: str | None = Field(
        default=None, description="The input whose value names the target element (its name and text)."
    )
    url: str = ""
    title: str = ""
    opened_tab: bool = Field(
        default=False,
        description="The action opened a new tab, where the run went on (an export waits for it).",
    )

    @model_validator(mode="after")
    def _inputs_fit(self) -> WorkflowStep:
        for param in self.inputs:
            if param not in self.params:
                raise ValueError(f"inputs names the parameter {param!r}, which the action has not")
        if self.target_input is not None and self.target is None:
            raise ValueError("target_input is set but the step has no target element")
        return self

    def input_names(self) -> list[str]:
        """Every input this step uses."""
        names = list(self.inputs.values())
        return [*names, self.target_input] if self.target_input else names


class Workflow(BaseModel):
    """A recorded run made repeatable: its steps, and the inputs that change from one run to the next."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["browser-agent-workflow"] = FORMAT
    version: Literal[1] = FORMAT_VERSION
    task: str = Field(default="", description="The recorded task, each input's value as {name}.")
    inputs: list[WorkflowInput] = Field(default_factory=list)
    steps: list[WorkflowStep] = Field(default_factory=list)
    secrets: list[str] = Field(default_factory=list, description="Secret names the steps type.")
    allowed_domains: tuple[str, ...] | None = None
    recorded_result: str | None = Field(
        default=None, description="What the recorded run reported at its end."
    )
    healed: HealRecord | None = Field(
        default=None, description="For a healed copy: the workflow it was healed from, and what changed."
    )

    @model_validator(mode="after")
    def _inputs_are_known_and_used(self) -> Workflow:
        names = [item.name for item in self.inputs]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"inputs {twice} are named twice")
        used: set[str] = set()
        for number, step in enumerate(self.steps, start=1):
            for name in step.input_names():
                if name not in names:
                    raise ValueError(f"step {number} uses the input {name!r}, which is not in 'inputs'")
                used.add(name)
        unused = [name for name in names if name not in used]
        if unused:
            raise ValueError(f"inputs {unused} are used by no step")
        return self

    def input(self, name: str) -> WorkflowInput:
        """The input called ``name``.

        Raises:
            UserError: there is none; the message lists those there are.
        """
        for item in self.inputs:
            if item.name == name:
                return item
        known = ", ".join(item.name for item in self.inputs) or "none"
        raise UserError(f"This workflow has no input {name!r}; its inputs are: {known}.")

    def values(self, given: dict[str, str] | None = None) -> dict[str, str]:
        """Every input's value: the given ones, the recorded defaults for the rest.

        Raises:
            UserError: a given name is not an input of this workflow (the known ones are listed).
        """
        given = given or {}
        for name in given:
            self.input(name)
        return {item.name: given.get(item.name, item.default) for item in self.inputs}

    def task_with(self, values: dict[str, str]) -> str:
        """The task in words, with these values in place of ``{name}``."""
        return re.sub(r"\{([a-z][a-z0-9_]*)\}", lambda m: values.get(m.group(1), m.group(0)), self.task)

    def save(self, path: str | Path) -> Path:
        """Write the workflow as JSON, redacted and atomically; return the path."""
        return artifacts.write_text(path, self.model_dump_json(indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Workflow:
        """Read and check a workflow file (within ``user_files``' limits).

        Raises:
            UserError: one line naming the file and its first problem.
        """
        return read_model(path, cls, what="workflow", check=_check_format)

    @classmethod
    def from_data(cls, data: Any, source: Path | str = "the workflow") -> Workflow:
        """Check ``data`` is a workflow this version reads, then validate it.

        Raises:
            UserError: it is a history (make a workflow of it first), another format or version, or
                invalid; the message names the first problem.
        """
        _check_format(data, str(source))
        return validated(cls, data, named=f"{source} is not a valid workflow:")


def _check_format(data: Any, named: str) -> None:
    """``data`` is a workflow of a version this one reads, not a history or another file.

    Raises:
        UserFileError: naming the mix-up and what to do.
    """
    if _is_history(data):
        path = named.removeprefix("workflow ")
        raise UserFileError(
            f"{named} is a run history, not a workflow; make one of it first: "
            f"`browser-agent workflow make {path} -o NAME.workflow.json`."
        )
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UserFileError(f'{named} is not a workflow (no "format": "{FORMAT}").')
    check_version(data.get("version"), (FORMAT_VERSION,), named=f"{named} has workflow version")


def _is_history(data: Any) -> bool:
    """Whether ``data`` looks like a saved run history (``AgentHistory.save``), the usual mix-up."""
    if not isinstance(data, dict) or "format" in data or not isinstance(data.get("steps"), list):
        return False
    return any(isinstance(step, dict) and "model_output" in step for step in data["steps"])
