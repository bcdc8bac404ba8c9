"""``--output-schema module:Model`` or ``file.py:Model``: the user's pydantic model for a run's structured
result, imported by the name the flag gives."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent.errors import UserError

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["import_model"]


def import_model(spec: str) -> type[BaseModel]:
    """``package.module:Model`` or ``path/to/file.py:Model`` → the pydantic model class.

    Raises:
        UserError: the module or the name cannot be found, or it is not a pydantic model.
    """
    from pydantic import BaseModel

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
