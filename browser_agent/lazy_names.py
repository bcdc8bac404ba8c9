"""A package's names imported on first use: its ``__init__`` stays light (no Playwright, no langchain)
until a heavy name is asked for.

::

    if not typing.TYPE_CHECKING:  # type checkers read the real imports; a module __getattr__ hides typos
        __getattr__, __dir__ = lazy_names(__name__, {"replay": "playback"}, globals())
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, homes: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``: a name of ``homes`` is imported from its
    submodule (``package.home``) the first time it is asked for, then kept in ``namespace``."""

    def get(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    def listing() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return get, listing
