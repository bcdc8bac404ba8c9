"""A saved login (``--login``) is checked as Playwright checks it, before a browser sees it: each fault is
one line naming the file and the place in it, never a value (the file holds credentials)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from browser_agent.browser.storage import read_storage_state
from browser_agent.user_files import UserFileError

SECRET = "tok-SECRET-51c2e8"
COOKIE: dict[str, Any] = {
    "name": "session",
    "value": SECRET,
    "domain": "127.0.0.1",
    "path": "/",
    "expires": -1,
    "httpOnly": True,
    "secure": False,
    "sameSite": "Lax",
}


def _write(tmp_path: Path, state: Any) -> Path:
    path = tmp_path / "login.json"
    path.write_text(state if isinstance(state, str) else json.dumps(state))
    path.chmod(0o600)
    return path


def test_a_login_saved_by_playwright_reads_back_as_it_is(tmp_path: Path) -> None:
    partitioned = COOKIE | {"name": "p", "expires": 1893456000.5, "partitionKey": "http://127.0.0.1"}
    by_url = {"name": "u", "value": SECRET, "url": "https://app.example/"}
    storage = [{"name": "k", "value": SECRET}]
    state = {
        "cookies": [COOKIE, partitioned, by_url],
        "origins": [{"origin": "http://127.0.0.1:8000", "localStorage": storage}],
    }
    assert read_storage_state(_write(tmp_path, state)) == state


def test_only_origins_or_only_cookies_is_a_login_too(tmp_path: Path) -> None:
    assert read_storage_state(_write(tmp_path, {"cookies": [COOKIE]})) == {"cookies": [COOKIE], "origins": []}
    origins = [{"origin": "https://a.example"}]
    assert read_storage_state(_write(tmp_path, {"origins": origins})) == {
        "cookies": [],
        "origins": [{"origin": "https://a.example", "localStorage": []}],
    }


@pytest.mark.parametrize(
    ("state", "says"),
    [
        (
            {"cookies": [COOKIE, COOKIE | {"sameSite": "Bogus"}]},
            "cookies[1].sameSite: Input should be 'Strict'",
        ),
        ({"cookies": [COOKIE | {"sameSite": "lax"}]}, "cookies[0].sameSite"),
        ({"cookies": [COOKIE | {"expires": "never"}]}, "cookies[0].expires: Input should be a valid number"),
        ({"cookies": [COOKIE | {"expires": True}]}, "cookies[0].expires"),
        ({"cookies": [COOKIE | {"expires": 1e300}]}, "cookies[0]: 'expires' must be -1"),
        ({"cookies": [COOKIE | {"expires": -5}]}, "cookies[0]: 'expires' must be -1"),
        ('{"cookies": [{"name": "a", "value": "b", "url": "http://a", "expires": Infinity}]}', "is not JSON"),
        ({"cookies": [COOKIE | {"name": 5}]}, "cookies[0].name: Input should be a valid string"),
        (
            {"cookies": [{k: v for k, v in COOKIE.items() if k != "value"}]},
            "cookies[0].value: Field required",
        ),
        ({"cookies": [COOKIE | {"httpOnly": "yes"}]}, "cookies[0].httpOnly: Input should be a valid boolean"),
        ({"cookies": [COOKIE | {"path": None}]}, "cookies[0]: needs a 'url', or a 'domain' and a 'path'"),
        ({"cookies": [COOKIE | {"url": "https://a.example/"}]}, "cookies[0]: has a 'url' and a 'domain'"),
        (
            {"cookies": [{"name": "a", "value": SECRET, "url": "data:,x"}]},
            "cookies[0]: 'url' must start with",
        ),
        ({"cookies": [SECRET]}, "cookies[0]: Input should be a valid dictionary"),
        ({"cookies": {"session": SECRET}}, "cookies: Input should be a valid list"),
        (
            {"origins": [{"origin": "file:///etc", "localStorage": []}]},
            "origins[0]: 'origin' must start with",
        ),
        (
            {"origins": [{"origin": "https://a.example", "localStorage": [{"name": "k", "value": 5}]}]},
            "origins[0].localStorage[0].value: Input should be a valid string",
        ),
        ([SECRET], "holds no object with 'cookies' and 'origins'"),
        ({"cookie": SECRET}, "has neither 'cookies' nor 'origins'"),
        ("[" * 100_000 + "]" * 100_000, "nests 100000 levels deep"),
        (f'{{"cookies": "{SECRET}', "is not JSON"),
    ],
)
def test_a_bad_login_is_one_line_naming_the_file_and_the_place_never_the_value(
    tmp_path: Path, state: Any, says: str
) -> None:
    path = _write(tmp_path, state)
    with pytest.raises(UserFileError) as caught:
        read_storage_state(path)
    message = str(caught.value)
    assert message.startswith(f"saved login {path}") and says in message, message
    assert "\n" not in message and SECRET not in message and "--save-login" in message


def test_a_login_that_is_not_utf8_or_too_large_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "login.json"
    path.write_bytes(b'{"cookies": [], "x": "\xff"}')
    with pytest.raises(UserFileError, match="is not UTF-8 text"):
        read_storage_state(path)
    path.write_text(json.dumps({"cookies": [COOKIE] * 20}))
    with pytest.raises(UserFileError, match="is larger than 1000 bytes"):
        read_storage_state(path, max_bytes=1000)
    assert read_storage_state(path)["cookies"] == [COOKIE] * 20


def test_a_login_others_can_read_loads_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = _write(tmp_path, {"cookies": [COOKIE]})
    with caplog.at_level(logging.WARNING, logger="browser_agent"):
        read_storage_state(path)
    assert not caplog.records
    path.chmod(0o644)
    with caplog.at_level(logging.WARNING, logger="browser_agent"):
        read_storage_state(path)
    assert "can be read by other users" in caplog.text and SECRET not in caplog.text
