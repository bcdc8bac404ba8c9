"""The installer adds Debian's headless shell beside a system Chromium when apt-get can, and carries on
with the full browser when it cannot. A stand-in ``apt-get`` on ``PATH`` plays the package manager. What it
says of each step (``output/install_progress.py``) reads as it always has."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from browser_agent.browser import chromium, install
from browser_agent.output.install_progress import PrintedInstallProgress

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="the installer uses apt-get only as root")

APT = """#!/bin/sh
echo "$@" >> {log}
case "$*" in *"install"*"chromium-headless-shell"*) {action} ;; esac
"""


def _exe(path: Path, text: str = "#!/bin/sh\n") -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A machine with a system Chromium, no headless shell and no Playwright build."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    browser = _exe(tmp_path / "chromium")
    monkeypatch.setattr(chromium, "SYSTEM", chromium.Candidates((str(browser),), ()))
    monkeypatch.setattr(chromium, "HEADLESS_SHELLS", chromium.Candidates((str(tmp_path / "shell"),), ()))
    monkeypatch.setattr(install, "_bundled_path", lambda: None)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.delenv("CHROME_PATH", raising=False)
    return tmp_path


@as_root
def test_the_headless_shell_is_added_beside_a_system_chromium(machine: Path) -> None:
    shell = machine / "shell"
    action = f"printf '#!/bin/sh\\n' > {shell}; chmod +x {shell}"
    _exe(machine / "bin" / "apt-get", APT.format(log=machine / "apt.log", action=action))
    assert install.ensure_chromium() == str(shell)
    assert (machine / "apt.log").read_text().split("\n")[0].endswith("install -y -qq chromium-headless-shell")
    assert install.ensure_chromium() == str(shell)  # once there, apt-get is not asked again
    assert len((machine / "apt.log").read_text().splitlines()) == 1


@as_root
def test_without_the_package_the_full_chromium_is_used(
    machine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _exe(machine / "bin" / "apt-get", APT.format(log=machine / "apt.log", action="exit 100"))
    assert install.ensure_chromium(PrintedInstallProgress(print)) == str(machine / "chromium")
    calls = (machine / "apt.log").read_text().splitlines()
    assert [c.split()[0] for c in calls] == ["install", "update", "install"], calls  # lists may be stale
    assert (
        capsys.readouterr().out.splitlines()[-1]
        == "  not available here: headless runs use the full Chromium"
    )


def test_each_step_is_said_in_the_lines_it_always_had() -> None:
    lines: list[str] = []
    progress = PrintedInstallProgress(lines.append)
    progress.started(
        install.InstallStep.PLAYWRIGHT_CHROMIUM, ["/py", "-m", "playwright", "install", "chromium"]
    )
    progress.failed(install.InstallStep.PLAYWRIGHT_CHROMIUM, "timed out")
    progress.started(install.InstallStep.DEBIAN_CHROMIUM, ["apt-get", "install", "chromium"])
    progress.started(install.InstallStep.HEADLESS_SHELL, ["apt-get", "install", "chromium-headless-shell"])
    progress.failed(install.InstallStep.HEADLESS_SHELL, "")
    progress.failed(install.InstallStep.HEADLESS_SHELL, "no space")
    assert lines == [
        "+ /py -m playwright install chromium",
        "  failed: timed out",
        "+ apt-get install chromium  (no Chromium found and Playwright could not download its own: Debian's "
        "package, installed with the system's package manager as root)",
        "+ apt-get install chromium-headless-shell  (with the system's package manager, as root: headless "
        "runs use it, lighter per page)",
        "  not available here: headless runs use the full Chromium",
        "  failed (no space): headless runs use the full Chromium",
    ]
