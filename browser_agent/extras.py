"""The distribution's name and version, and the one way the core loads an optional extra.

The core never imports an extra at module level: it asks ``require`` at the moment it needs one, and a
missing extra becomes one ``UserError`` line saying what to install.
"""

from __future__ import annotations

import importlib
import importlib.util
import shlex
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType

from browser_agent.errors import UserError

__all__ = ["DISTRIBUTION", "install_hint", "require", "version"]

DISTRIBUTION = "pw-browser-agent"
"""The name on the package index (the import name is ``browser_agent``)."""


def version() -> str:
    """The installed version; ``0+unknown`` when run from a source tree that was never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


def install_hint(extra: str) -> str:
    """A command that installs ``extra`` where this package is installed: ``make install EXTRAS=...`` in
    the clone it was installed from (its virtual environment may have no pip of its own), else this
    Python's own installer (its pip, or the uv beside it)."""
    clone = _clone()
    if clone is not None:
        where = "" if Path.cwd().resolve() == clone else f"cd {shlex.quote(str(clone))} && "
        return f"{where}make install EXTRAS={extra}"
    requirement = shlex.quote(f"{DISTRIBUTION}[{extra}]")
    python = shlex.quote(sys.executable)
    if importlib.util.find_spec("pip") is not None:
        return f"{python} -m pip install {requirement}"
    uv = Path(sys.executable).with_name("uv")
    if uv.exists():
        return f"{shlex.quote(str(uv))} pip install --python {python} {requirement}"
    return f"pip install --python {python} {requirement}"


def _clone() -> Path | None:
    """The checkout this package runs from, when it is one with the Makefile that installs extras."""
    root = Path(__file__).resolve().parents[1]
    if (root / "Makefile").is_file() and (root / "pyproject.toml").is_file():
        return root
    return None


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` from an optional extra.

    Raises:
        UserError: it is not installed; the message names the extra to install.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise UserError(f"{purpose} needs {module.split('.')[0]}: {install_hint(extra)}") from exc
