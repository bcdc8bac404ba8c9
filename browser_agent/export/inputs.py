"""The inputs of an exported script: each value the run typed or chose becomes a named constant read from
an environment variable (the recorded value is its default) and a parameter of ``run``; a secret is read
from its own environment variable only, and its value is never known here (histories hold placeholders).
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

from browser_agent.export.literals import py_string

__all__ = ["ENV_PREFIX", "Inputs", "ScriptInput", "secret_env"]

ENV_PREFIX = "BA_"
_PLACEHOLDER = re.compile(r"<secret>\s*([A-Za-z0-9_.\-]+)\s*</secret>")
_NAME_CAP = 30
# The script's own names, which an input must not shadow (``frame_2``: a frame's variable).
_TAKEN = frozenset(
    {"page", "os", "re", "tabs", "target", "new_tab", "quote_plus", "said", "browser", "playwright", "run"}
    | {"main", "pytest", "expect", "sync_playwright", "recorded_from", "recorded_task"}
    | {"recorded_answer", "str", "read", "shown", "dict", "print"}
    | {"healable", "healing_args", "healing_wait_ms"}  # the --heal form's calls
)


@dataclass(frozen=True, slots=True)
class ScriptInput:
    """One input: ``name`` is the parameter of ``run``; ``constant`` and ``env`` are derived from it."""

    name: str
    value: str

    @property
    def constant(self) -> str:
        return self.name.upper()

    @property
    def env(self) -> str:
        return ENV_PREFIX + self.name.upper()


def secret_env(name: str) -> str:
    """The environment variable a secret is read from: ``BA_SECRET_PW`` for ``<secret>pw</secret>``."""
    return f"{ENV_PREFIX}SECRET_{re.sub(r'[^A-Za-z0-9]+', '_', name).strip('_').upper()}"


class Inputs:
    """The inputs met so far, in order, and the Python expression that stands for each value."""

    def __init__(self) -> None:
        self._inputs: list[ScriptInput] = []
        self.secrets: list[str] = []  # environment variables, in order of first use

    @property
    def all(self) -> tuple[ScriptInput, ...]:
        return tuple(self._inputs)

    def value(self, text: str, hint: str) -> str:
        """The expression for ``text``: an input's name (made from ``hint`` when new), or the secrets it
        holds read from their environment variables, joined to the text around them."""
        if _PLACEHOLDER.search(text):
            return self._with_secrets(text)
        return self.add(hint, text).name

    def add(self, hint: str, value: str) -> ScriptInput:
        """The input for ``value``, named from ``hint``; the same name and value make the same input."""
        base = identifier(hint)
        name, count = base, 1
        while True:
            found = next((i for i in self._inputs if i.name == name), None)
            if found is None:
                made = ScriptInput(name, value)
                self._inputs.append(made)
                return made
            if found.value == value:
                return found
            count += 1
            name = f"{base}_{count}"

    def mark(self) -> tuple[int, int]:
        """Where the inputs and secrets stand, to go back to with ``rollback``."""
        return len(self._inputs), len(self.secrets)

    def rollback(self, mark: tuple[int, int]) -> None:
        """Forget the inputs and secrets met since ``mark`` (a step that was not written after all)."""
        del self._inputs[mark[0] :]
        del self.secrets[mark[1] :]

    def find(self, value: str) -> ScriptInput | None:
        return next((i for i in self._inputs if i.value == value), None)

    def _with_secrets(self, text: str) -> str:
        parts: list[str] = []
        at = 0
        for found in _PLACEHOLDER.finditer(text):
            if found.start() > at:
                parts.append(py_string(text[at : found.start()]))
            env = secret_env(found.group(1))
            if env not in self.secrets:
                self.secrets.append(env)
            parts.append(f"os.environ[{py_string(env)}]")
            at = found.end()
        if at < len(text):
            parts.append(py_string(text[at:]))
        return " + ".join(parts)


def identifier(hint: str) -> str:
    """A lower-case Python name from a label: ``"Full name"`` → ``full_name``; ``value`` when none."""
    name = re.sub(r"[^a-z0-9]+", "_", hint.lower()).strip("_")[:_NAME_CAP].rstrip("_")
    if not name:
        return "value"
    if name[0].isdigit():
        name = "input_" + name
    taken = keyword.iskeyword(name) or name in _TAKEN or re.fullmatch(r"frame(_\d+)?", name)
    return name + "_" if taken else name
