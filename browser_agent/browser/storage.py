"""Saved logins: a context's cookies and local storage in a JSON file, read back into fresh contexts.

The file is Playwright's storage state (``{"cookies": [...], "origins": [...]}``). It holds credentials,
so it is written with owner-only permissions from the moment it exists (a private temporary file moved
over the target), and nothing here ever puts its content into a message: an error names the file and
the place in it, never a value.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from browser_agent.errors import UserError

__all__ = ["read_storage_state", "write_storage_state"]

logger = logging.getLogger("browser_agent")

_PRIVATE = 0o600
_COOKIE_TEXTS = ("name", "value")
_SAVE_HINT = "save one with `browser-agent run --save-login FILE` or `await session.save_storage_state(FILE)`"


def read_storage_state(path: Path) -> dict[str, Any]:
    """The saved login at ``path``, checked to be one (cookies and origins' local storage).

    A file other users can read still loads, with a warning: it holds credentials.

    Raises:
        UserError: the file is missing, unreadable, not JSON, or not a saved login; the message says
            where in the file, never what it holds.
    """
    try:
        text = path.read_text(encoding="utf-8")
        mode = path.stat().st_mode
    except OSError as exc:
        raise UserError(
            f"The saved login {path} cannot be read ({exc.strerror or exc}); {_SAVE_HINT}."
        ) from exc
    except UnicodeDecodeError:
        raise UserError(f"The saved login {path} is not text; {_SAVE_HINT}.") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        line = getattr(exc, "lineno", "?")  # not chained: a JSONDecodeError carries the whole text
        raise UserError(f"The saved login {path} is not JSON (line {line}); {_SAVE_HINT}.") from None
    problem = _problem(data)
    if problem is not None:
        raise UserError(f"{path} is not a saved login: {problem}; {_SAVE_HINT}.")
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        logger.warning("The saved login %s can be read by other users of this machine; chmod 600 it.", path)
    return {"cookies": list(data.get("cookies", [])), "origins": list(data.get("origins", []))}


def _problem(data: Any) -> str | None:
    """What makes ``data`` something other than a storage state, or None when it is one."""
    if not isinstance(data, dict):
        return "it holds no object with 'cookies' and 'origins'"
    if "cookies" not in data and "origins" not in data:
        return "it has neither 'cookies' nor 'origins'"
    cookies, origins = data.get("cookies", []), data.get("origins", [])
    if not isinstance(cookies, list) or not isinstance(origins, list):
        return "'cookies' and 'origins' must be lists"
    for number, cookie in enumerate(cookies):
        if not isinstance(cookie, dict) or not all(isinstance(cookie.get(k), str) for k in _COOKIE_TEXTS):
            return f"cookies[{number}] needs a text 'name' and 'value'"
        if not isinstance(cookie.get("domain"), str) and not isinstance(cookie.get("url"), str):
            return f"cookies[{number}] needs a 'domain' or a 'url'"
    for number, origin in enumerate(origins):
        if not isinstance(origin, dict) or not isinstance(origin.get("origin"), str):
            return f"origins[{number}] needs a text 'origin'"
        items = origin.get("localStorage", [])
        if not isinstance(items, list) or not all(_name_value(item) for item in items):
            return f"origins[{number}].localStorage must be a list of {{'name', 'value'}} texts"
    return None


def _name_value(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("name"), str) and isinstance(item.get("value"), str)


def write_storage_state(path: Path, state: Mapping[str, Any]) -> Path:
    """Write ``state`` to ``path`` readable by its owner only, replacing what was there at once.

    The bytes go to a new file created with mode 0600 beside ``path``, which is then renamed over it:
    at no moment does ``path`` exist with wider permissions, or half written.

    Raises:
        UserError: the file cannot be written there.
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _PRIVATE)
        with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
            json.dump(state, stream, indent=2)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise UserError(f"The login cannot be saved to {target} ({exc.strerror or exc}).") from exc
    return target
