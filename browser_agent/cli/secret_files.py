"""The secrets a command is given: ``--secrets FILE`` (a JSON object) and ``--secret NAME=ENVVAR`` (a
variable of the environment), read and checked before a browser starts. Values never appear in a
message."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from browser_agent import artifacts
from browser_agent.errors import UserError
from browser_agent.sensitive import Secrets

__all__ = ["load_secrets"]


def load_secrets(file: Path | None, pairs: Sequence[str] = ()) -> dict[str, str | dict[str, str]]:
    """The secrets of ``--secrets FILE`` and ``--secret NAME=ENVVAR``, validated as ``Secrets`` does.

    Raises:
        UserError: an unreadable or malformed file, a pair without ``=``, an unset variable, or a
            secret ``Secrets`` refuses. Values never appear in the message.
    """
    data = _secrets_file(file) if file is not None else {}
    for pair in pairs:
        name, sep, variable = pair.partition("=")
        if not sep or not name or not variable:
            raise UserError(f"--secret {pair!r} must look like NAME=ENVVAR.")
        value = os.environ.get(variable)
        if value is None:
            raise UserError(f"--secret {name}={variable}: the environment variable {variable} is not set.")
        data[name] = value
    # refuses what the run would refuse, before a browser starts; then redacted from all the command writes
    artifacts.remember(Secrets(data))
    return data


def _secrets_file(file: Path) -> dict[str, str | dict[str, str]]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"--secrets {file}: cannot read it ({exc.strerror or exc}).") from exc
    except ValueError as exc:
        line = getattr(exc, "lineno", "?")
        raise UserError(f'--secrets {file} is not JSON (line {line}); write {{"name": "value"}}.') from None
    if not isinstance(data, dict) or not all(_secret_entry(v) for v in data.values()):
        raise UserError(
            f'--secrets {file} must hold one object: {{"name": "value", ...}} or '
            '{"https://*.site.example": {"name": "value"}}.'
        )
    return data


def _secret_entry(value: object) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )
