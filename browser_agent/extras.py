"""The distribution's name and version, and the one way the core loads an optional extra.

The core never imports an extra at module level: it asks ``require`` at the moment it needs one, and a
missing extra becomes one ``UserError`` line saying what to install.
"""

from __future__ import annotations

import importlib
from importlib import metadata
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
    return f"pip install '{DISTRIBUTION}[{extra}]'"


def require(module: str, extra: str, purpose: str) -> ModuleType:
    """Import ``module`` from an optional extra.

    Raises:
        UserError: it is not installed; the message names the extra to install.
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise UserError(f"{purpose} needs {module.split('.')[0]}: {install_hint(extra)}") from exc
