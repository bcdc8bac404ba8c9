from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from browser_agent.browser.chromium import QUIET_FLAGS, Candidates, chromium_args, find_chromium
from browser_agent.errors import BrowserError

NOWHERE = Candidates(paths=(), names=())


def _exe(path: Path) -> Path:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def test_playwright_bundled_build_wins(tmp_path: Path) -> None:
    bundled = _exe(tmp_path / "chrome")
    shell = Candidates(paths=(str(_exe(tmp_path / "chromium-headless-shell")),), names=())
    loc = find_chromium(playwright_path=str(bundled), env={}, system=NOWHERE, shells=shell)
    assert loc.source == "playwright" and loc.path is None


def test_chrome_path_env_then_system(tmp_path: Path) -> None:
    env_chrome = _exe(tmp_path / "env-chrome")
    loc = find_chromium(
        playwright_path=str(tmp_path / "missing"),
        env={"CHROME_PATH": str(env_chrome)},
        system=NOWHERE,
        shells=NOWHERE,
    )
    assert (loc.source, loc.path) == ("env", env_chrome)
    system = _exe(tmp_path / "chromium")
    loc = find_chromium(env={}, system=Candidates((str(system),), ()), shells=NOWHERE)
    assert (loc.source, loc.path) == ("system", system)


def test_a_headless_launch_prefers_the_headless_shell_and_a_headed_one_the_browser(tmp_path: Path) -> None:
    system = Candidates((str(_exe(tmp_path / "chromium")),), ())
    _exe(tmp_path / "chromium-headless-shell")
    shells = Candidates(("/nope/headless-shell",), ("chromium-headless-shell",))
    env = {"PATH": str(tmp_path)}
    loc = find_chromium(env=env, system=system, shells=shells)
    assert (loc.source, loc.path) == ("headless-shell", tmp_path / "chromium-headless-shell")
    loc = find_chromium(env=env, system=system, shells=shells, headless=False)
    assert (loc.source, loc.path) == ("system", tmp_path / "chromium")
    chosen = _exe(tmp_path / "my-chrome")  # the user's own choice comes before any shell
    loc = find_chromium(env=env | {"CHROME_PATH": str(chosen)}, system=system, shells=shells)
    assert (loc.source, loc.path) == ("env", chosen)


def test_found_on_path_by_name(tmp_path: Path) -> None:
    _exe(tmp_path / "chromium-browser")
    loc = find_chromium(
        env={"PATH": str(tmp_path)}, system=Candidates((), ("chromium-browser",)), shells=NOWHERE
    )
    assert loc.path == tmp_path / "chromium-browser"


def test_nothing_found_names_every_candidate(tmp_path: Path) -> None:
    with pytest.raises(BrowserError) as info:
        find_chromium(
            playwright_path="/nope/chrome",
            env={"PATH": str(tmp_path), "CHROME_PATH": "/nope/env"},
            system=Candidates(("/nope/chromium",), ("chromium",)),
            shells=NOWHERE,
        )
    message = str(info.value)
    for tried in (
        "/nope/chrome",
        "CHROME_PATH=/nope/env",
        "/nope/chromium",
        "chromium on PATH",
        "apt-get install",
    ):
        assert tried in message


def test_configured_path_that_is_not_executable_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BrowserError, match="executable_path"):
        find_chromium(tmp_path / "nothing")


def test_args_are_quiet_and_sandbox_free_as_root() -> None:
    args = chromium_args(["--foo"], block_external_network=True)
    assert set(QUIET_FLAGS) <= set(args)
    assert "--foo" in args
    assert any(a.startswith("--host-resolver-rules=") for a in args)
    assert ("--no-sandbox" in args) == (os.geteuid() == 0)
