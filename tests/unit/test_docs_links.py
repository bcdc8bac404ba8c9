"""Every relative link in the README and the guides points at a file that exists (and at a heading of it,
with an anchor), and the README stays short enough to read in one go (the detail lives in docs/)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _relative_links(page: Path) -> list[str]:
    links = [m.group(1).split("#", 1)[0] for m in _LINK.finditer(page.read_text(encoding="utf-8"))]
    return [link for link in links if link and "://" not in link and not link.startswith("mailto:")]


def test_every_relative_link_points_at_a_file() -> None:
    broken = [
        f"{page.relative_to(ROOT)} → {link}"
        for page in DOCS
        for link in _relative_links(page)
        if not (page.parent / link).exists()
    ]
    assert not broken, broken
    assert sum(len(_relative_links(page)) for page in DOCS) >= 12  # the scan sees the links that are there


def test_the_readme_leads_and_the_guides_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    for guide in ("models", "cli", "python", "safety", "replay", "scaling", "mcp", "troubleshooting"):
        assert f"(docs/{guide}.md)" in readme, guide
    assert "(docs/report.png)" in readme


def test_every_page_a_walkthrough_opens_on_port_8000_is_in_examples_site() -> None:
    """The README serves examples/site on 127.0.0.1:8000; a guide that names another page there sends
    the reader to a 404 (as a form.html once did)."""
    named = {
        (page.relative_to(ROOT), path)
        for page in DOCS
        for path in re.findall(r"127\.0\.0\.1:8000/([\w./-]+)", page.read_text(encoding="utf-8"))
    }
    missing = [
        f"{page} → {path}" for page, path in named if not (ROOT / "examples" / "site" / path).is_file()
    ]
    assert not missing, missing
    assert len(named) >= 2  # the README and the models guide both walk through it


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_anchor_in_a_link_names_a_heading_of_its_page() -> None:
    checked, broken = 0, []
    for page in DOCS:
        for target in _LINK.findall(page.read_text(encoding="utf-8")):
            link, hash_, anchor = target.partition("#")
            if not hash_ or "://" in link:
                continue
            linked = (page.parent / link) if link else page
            checked += 1
            if anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)} → {target}")
    assert not broken, broken
    assert checked >= 5  # the CLI reference's links to its shared flags, the Python guide's to models
