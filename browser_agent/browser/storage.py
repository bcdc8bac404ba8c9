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
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from browser_agent.errors import UserError
from browser_agent.user_files import UserFileError, read_json, validation_message

__all__ = ["read_storage_state", "write_storage_state"]

logger = logging.getLogger("browser_agent")

_PRIVATE = 0o600
_LAST_EXPIRY = 253402300799  # 9999-12-31T23:59:59Z, the latest expiry Playwright accepts
_SAVE_WITH = "with `browser-agent run --save-login FILE` or `await session.save_storage_state(FILE)`"


class _Cookie(BaseModel):
    """A cookie as Playwright sets it, checked here so that a bad one is said before a browser sees it."""

    model_config = ConfigDict(strict=True, extra="allow")  # Playwright ignores fields it does not know

    name: str
    value: str
    url: str | None = None
    domain: str | None = None
    path: str | None = None
    expires: float | None = Field(default=None, allow_inf_nan=False)
    httpOnly: bool | None = None
    secure: bool | None = None
    sameSite: Literal["Strict", "Lax", "None"] | None = None

    @model_validator(mode="after")
    def _placed(self) -> _Cookie:
        """Playwright's own rules: a url, or a domain and a path; an expiry it accepts."""
        if self.url is None and not (self.domain and self.path):
            raise ValueError("needs a 'url', or a 'domain' and a 'path'")
        if self.url is not None and (self.domain is not None or self.path is not None):
            raise ValueError("has a 'url' and a 'domain' or 'path': give one or the other")
        if self.url is not None and not self.url.startswith(("http://", "https://")):
            raise ValueError("'url' must start with http:// or https://")
        if self.expires is not None and self.expires != -1 and not 0 <= self.expires <= _LAST_EXPIRY:
            raise ValueError("'expires' must be -1 (a session cookie) or seconds since 1970")
        return self


class _Entry(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")

    name: str
    value: str


class _Origin(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow")

    origin: str
    localStorage: list[_Entry] = Field(default_factory=list)

    @model_validator(mode="after")
    def _web(self) -> _Origin:
        if not self.origin.startswith(("http://", "https://")):
            raise ValueError("'origin' must start with http:// or https://")
        return self


class _StorageState(BaseModel):
    """Playwright's storage state: what ``BrowserContext.storage_state`` returns and ``new_context`` takes."""

    model_config = ConfigDict(strict=True, extra="allow")

    cookies: list[_Cookie] = Field(default_factory=list)
    origins: list[_Origin] = Field(default_factory=list)


def read_storage_state(path: Path, *, max_bytes: int | None = None) -> dict[str, Any]:
    """The saved login at ``path``, checked to be one (cookies and origins' local storage) as Playwright
    would check it, so that what it refuses is said here, naming the place in the file.

    A file other users can read still loads, with a warning: it holds credentials.

    Raises:
        UserFileError: the file is missing, unreadable, too large, not JSON, or not a saved login; the
            message says where in the file, never what it holds.
    """
    source = Path(path)
    try:
        data = read_json(source, what="saved login", max_bytes=max_bytes)
    except UserFileError as exc:
        raise UserFileError(f"{exc} Save one {_SAVE_WITH}.") from None
    named = f"saved login {source}"
    if not isinstance(data, dict):
        raise UserFileError(f"{named} holds no object with 'cookies' and 'origins'; save one {_SAVE_WITH}.")
    if "cookies" not in data and "origins" not in data:
        raise UserFileError(f"{named} has neither 'cookies' nor 'origins'; save one {_SAVE_WITH}.")
    try:
        state = _StorageState.model_validate(data)
    except ValidationError as exc:
        raise UserFileError(
            f"{named} is not a saved login: {validation_message(exc)}; save one {_SAVE_WITH}."
        ) from None
    with contextlib.suppress(OSError):
        if source.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            logger.warning(
                "The saved login %s can be read by other users of this machine; chmod 600 it.", source
            )
    # None stands for "not given": Playwright wants such a field left out
    return state.model_dump(exclude_none=True)


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
