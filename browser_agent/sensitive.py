"""Secrets passed as sensitive data: placeholders in, clear text only at action time, redaction out.

The model only ever sees ``<secret>name</secret>``. ``fill_secrets`` swaps the real value in right
before an action types it; ``redact`` replaces every real value by its placeholder in any text that
leaves the process (prompts, logs, saved history, reports).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["SensitiveData", "fill_secrets", "placeholder", "redact", "redact_obj"]

SensitiveData = Mapping[str, str]
_PLACEHOLDER = re.compile(r"<secret>\s*([A-Za-z0-9_.\-]+)\s*</secret>")


def placeholder(name: str) -> str:
    return f"<secret>{name}</secret>"


def fill_secrets(text: str, secrets: SensitiveData | None) -> str:
    """Replace each known placeholder in ``text`` by its value; unknown names are left as they are."""
    if not secrets or "<secret>" not in text:
        return text
    return _PLACEHOLDER.sub(lambda m: secrets.get(m.group(1), m.group(0)), text)


def redact(text: str, secrets: SensitiveData | None) -> str:
    """Replace every secret value in ``text`` by its placeholder, longest values first."""
    if not secrets or not text:
        return text
    for name, value in sorted(secrets.items(), key=lambda kv: len(kv[1]), reverse=True):
        if value:
            text = text.replace(value, placeholder(name))
    return text


def redact_obj(obj: Any, secrets: SensitiveData | None) -> Any:
    """``redact`` applied to every string inside nested dicts, lists and tuples."""
    if not secrets:
        return obj
    if isinstance(obj, str):
        return redact(obj, secrets)
    if isinstance(obj, dict):
        return {k: redact_obj(v, secrets) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(redact_obj(v, secrets) for v in obj)
    return obj
