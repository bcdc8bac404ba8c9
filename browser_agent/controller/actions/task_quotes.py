"""The texts a task quotes between double quotes, as the checks on what the model types compare them."""

from __future__ import annotations

import re

__all__ = ["quoted_texts", "without_quotes"]

_QUOTED = re.compile(r'"([^"]{1,200})"|“([^”]{1,200})”')


def quoted_texts(task: str) -> set[str]:
    """The texts ``task`` quotes ('Type "DOLORES" ...', “...”), stripped and in lower case."""
    return {"".join(parts).strip().lower() for parts in _QUOTED.findall(task)}


def without_quotes(task: str) -> str:
    """``task`` with each quoted text (its quotes too) turned into a space."""
    return _QUOTED.sub(" ", task)
