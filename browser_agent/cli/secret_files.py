"""The secrets a command is given: ``--secrets FILE`` (a JSON object) and ``--secret NAME=ENVVAR`` (a
variable of the environment), read and checked before a browser starts. Values never appear in a
message."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from browser_agent import artifacts
from browser_agent.errors import UserError
from browser_agent.sensitive import Secrets
from browser_agent.user_files import UserFileError, read_json

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
    data = read_json(file, what="--secrets file")
    if not isinstance(data, dict) or not all(_secret_entry(v) for v in data.values()):
        raise UserFileError(
            f'--secrets file {file} must hold one object: {{"name": "value", ...}} or '
            '{"https://*.site.example": {"name": "value"}}.'
        )
    try:
        Secrets(data)
    except UserError as exc:  # a secret too short to redact, a bad name: said with the file's name
        raise UserFileError(f"--secrets file {file}: {exc}") from None
    return data


def _secret_entry(value: object) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )
