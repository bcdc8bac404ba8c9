"""The package installs like one: the wheel holds the type marker, the page scripts and the prompts; the
source distribution the examples; the version is the distribution's."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

import browser_agent
from browser_agent.errors import UserError
from browser_agent.extras import DISTRIBUTION, install_hint, require

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(180)
def test_wheel_holds_py_typed_js_assets_prompts_and_license(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    shutil.copytree(
        ROOT / "browser_agent", source / "browser_agent", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    build = f"from setuptools import build_meta; build_meta.build_wheel({str(tmp_path / 'dist')!r})"
    built = subprocess.run(  # the build backend itself, as pip or `python -m build` would call it
        [sys.executable, "-c", build],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=170,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name.startswith(DISTRIBUTION.replace("-", "_") + "-")
    names = set(zipfile.ZipFile(wheel).namelist())
    for asset in (
        "browser_agent/py.typed",
        "browser_agent/dom/extract.js",
        "browser_agent/dom/instrument.js",
        "browser_agent/agent/prompts/system.md",
        "browser_agent/demo/recorded_run.json",
    ):
        assert asset in names, f"{asset} missing from {wheel.name}"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), sorted(names)[-8:]
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert f"Name: {DISTRIBUTION}" in text and "License-Expression: MIT" in text
    assert "Provides-Extra: gif" in text


def test_a_missing_extra_is_one_line_naming_what_to_install() -> None:
    with pytest.raises(UserError) as caught:
        require("no_such_module_for_sure", "gif", "An animated GIF")
    assert str(caught.value) == f"An animated GIF needs no_such_module_for_sure: {install_hint('gif')}"
    assert "\n" not in str(caught.value)


_PIP_INSTALL = re.compile(r"pip3? install ([^\n]*)")
# A requirement as written after `pip install`: a name (or `.` for a clone) and maybe [extras], quoted or not.
_REQUIREMENT = re.compile(r"['\"`(]*(\.|[A-Za-z0-9](?:[\w.-]*[A-Za-z0-9])?)(\[[^\]]*\])?")


def _install_hints() -> list[tuple[str, str, str]]:
    """(file, name, extras) for every requirement of ours named after ``pip install`` in the package
    (code, prompts, page scripts), the README, the docs and the examples."""
    files = [p for ext in ("py", "md", "html", "js") for p in (ROOT / "browser_agent").rglob(f"*.{ext}")]
    files += [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "examples").rglob("*")]
    found = []
    for path in sorted(p for p in files if p.is_file()):
        text = path.read_text(encoding="utf-8").replace("{DISTRIBUTION}", DISTRIBUTION)
        for match in _PIP_INSTALL.finditer(text):
            for token in match.group(1).split():
                if token.startswith("#"):  # a shell comment: the rest is prose
                    break
                requirement = _REQUIREMENT.match(token)
                if token.startswith("-") or requirement is None:
                    continue
                name, extras = requirement.group(1), requirement.group(2) or ""
                if extras or name == "." or ("browser" in name.lower() and "agent" in name.lower()):
                    found.append((str(path.relative_to(ROOT)), name, extras))
    return found


def test_every_install_hint_names_our_distribution() -> None:
    hints = _install_hints()
    assert len(hints) >= 8, hints  # the scan sees the hints that are there (README, extras, docstrings)
    wrong = [hint for hint in hints if hint[1] not in (DISTRIBUTION, ".")]
    assert not wrong, f"install hints must name {DISTRIBUTION} (or `-e '.[extra]'` from a clone): {wrong}"


def test_the_install_hint_works_where_the_package_was_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a clone, its Makefile (the clone's .venv has no pip); elsewhere this Python's own installer."""
    import browser_agent.extras as extras

    monkeypatch.chdir(ROOT)
    assert install_hint("mcp") == "make install EXTRAS=mcp"
    monkeypatch.chdir(ROOT / "docs")
    assert install_hint("mcp") == f"cd {ROOT} && make install EXTRAS=mcp"
    monkeypatch.setattr(extras, "_clone", lambda: None)
    hint = install_hint("mcp")
    assert hint.endswith(f" '{DISTRIBUTION}[mcp]'") and " install " in hint and sys.executable in hint, hint
    if importlib.util.find_spec("pip") is None:
        assert " pip install --python " in hint
    else:
        assert hint.startswith(f"{sys.executable} -m pip install")


@pytest.mark.timeout(120)
def test_the_source_distribution_holds_the_examples(tmp_path: Path) -> None:
    source = tmp_path / "src"
    for folder in ("browser_agent", "examples", "docs"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        shutil.copy(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-c", "from setuptools import build_meta; print(build_meta.build_sdist('dist'))"],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=110,
        check=False,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    archive = source / "dist" / built.stdout.strip().splitlines()[-1]
    with tarfile.open(archive) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    examples = {f"examples/{path.name}" for path in (ROOT / "examples").glob("*.py")}
    assert examples and examples <= names, sorted(examples - names)
    assert "docs/DESIGN.md" in names and "browser_agent/py.typed" in names
    assert not any("__pycache__" in name for name in names)


def test_the_version_is_the_installed_distributions() -> None:
    assert browser_agent.__version__ == metadata.version(DISTRIBUTION) != "0+unknown"
    shown = subprocess.run(
        [sys.executable, "-m", "browser_agent", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert shown.stdout.strip() == f"browser-agent {browser_agent.__version__}", shown
