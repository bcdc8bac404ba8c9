"""The installer adds Debian's headless shell beside a system Chromium when apt-get can, and carries on
with the full browser when it cannot. A stand-in ``apt-get`` on ``PATH`` plays the package manager."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from browser_agent.browser import chromium, install
from browser_agent.output.install_progress import PrintedInstallProgress

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the installer uses apt-get only as root")

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


def test_the_headless_shell_is_added_beside_a_system_chromium(machine: Path) -> None:
    shell = machine / "shell"
    action = f"printf '#!/bin/sh\\n' > {shell}; chmod +x {shell}"
    _exe(machine / "bin" / "apt-get", APT.format(log=machine / "apt.log", action=action))
    assert install.ensure_chromium() == str(shell)
    assert (machine / "apt.log").read_text().split("\n")[0].endswith("install -y -qq chromium-headless-shell")
    assert install.ensure_chromium() == str(shell)  # once there, apt-get is not asked again
    assert len((machine / "apt.log").read_text().splitlines()) == 1


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
