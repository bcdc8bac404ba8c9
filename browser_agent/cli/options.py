"""Options several subcommands share: secrets from a file and the environment, models by import path."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from browser_agent.agent import AgentSettings
from browser_agent.errors import UserError
from browser_agent.sensitive import Secrets

__all__ = ["add_secret_options", "import_model", "load_secrets", "tool_calling_methods"]


def tool_calling_methods() -> tuple[str, ...]:
    """The values ``AgentSettings.tool_calling_method`` takes, read from its type."""
    annotation = AgentSettings.model_fields["tool_calling_method"].annotation
    return tuple(str(v) for v in typing.get_args(annotation))


def add_secret_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--secrets",
        type=Path,
        metavar="FILE",
        help='a JSON file of secrets: {"pw": "..."} or {"https://*.bank.example": {"pw": "..."}}',
    )
    parser.add_argument(
        "--secret",
        action="append",
        default=[],
        metavar="NAME=ENVVAR",
        help="a secret read from environment variable ENVVAR, typed for <secret>NAME</secret> (repeatable)",
    )


def load_secrets(file: Path | None, pairs: list[str]) -> Secrets:
    """The secrets of ``--secrets FILE`` and ``--secret NAME=ENVVAR``, validated.

    Raises:
        UserError: an unreadable or malformed file, a pair without ``=``, an unset variable, or a
            secret ``Secrets`` refuses. Values never appear in the message.
    """
    data: dict[str, Any] = {}
    if file is not None:
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise UserError(f"--secrets {file}: cannot read it ({exc.strerror or exc}).") from exc
        except ValueError as exc:
            raise UserError(f"--secrets {file} is not JSON (line {getattr(exc, 'lineno', '?')}).") from None
        if not isinstance(data, dict):
            raise UserError(f'--secrets {file} must hold a JSON object such as {{"pw": "..."}}.')
    for pair in pairs:
        name, sep, variable = pair.partition("=")
        if not sep or not name or not variable:
            raise UserError(f"--secret {pair!r} must look like NAME=ENVVAR.")
        value = os.environ.get(variable)
        if value is None:
            raise UserError(f"--secret {name}={variable}: the environment variable {variable} is not set.")
        data[name] = value
    return Secrets(data)


def import_model(spec: str) -> type[BaseModel]:
    """``package.module:Model`` or ``path/to/file.py:Model`` → the pydantic model class.

    Raises:
        UserError: the module or the name cannot be found, or it is not a pydantic model.
    """
    where, sep, name = spec.rpartition(":")
    if not sep or not where or not name:
        raise UserError(f"--output-schema {spec!r} must look like module:Model or file.py:Model.")
    module = _import(where, spec)
    found = getattr(module, name, None)
    if not (isinstance(found, type) and issubclass(found, BaseModel)):
        raise UserError(f"--output-schema {spec}: {where} has no pydantic model named {name!r}.")
    return found


def _import(where: str, spec: str) -> Any:
    try:
        if where.endswith(".py"):
            path = Path(where).resolve()
            loader = importlib.util.spec_from_file_location(path.stem, path)
            if loader is None or loader.loader is None or not path.is_file():
                raise UserError(f"--output-schema {spec}: {where} is not a readable Python file.")
            module = importlib.util.module_from_spec(loader)
            loader.loader.exec_module(module)
            return module
        if "" not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())  # models of the project the command runs in
        return importlib.import_module(where)
    except (ImportError, SyntaxError) as exc:
        raise UserError(f"--output-schema {spec}: cannot import {where} ({exc}).") from exc
