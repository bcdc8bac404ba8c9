"""The evaluation's static site serves pages that declare no charset as the UTF-8 they are: MiniWoB++'s
unicode-test and saved real articles read as windows-1252 before ("ãƒ˜ãƒ«ãƒ—" for "ヘルプ")."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from browser_agent.eval import StaticSite

HELP = "\u30d8\u30eb\u30d7"  # ヘルプ


async def test_a_utf8_page_without_a_charset_reads_as_written(browser: Browser, tmp_path: Path) -> None:
    (tmp_path / "task.html").write_bytes(
        f"<!doctype html><title>Task</title><button>{HELP}</button><p>It\u2019s here.</p>".encode()
    )
    (tmp_path / "words.js").write_bytes(f"document.title = '{HELP}';".encode())
    (tmp_path / "script.html").write_bytes(b"<!doctype html><script src='words.js'></script>")
    page = await browser.new_page()
    try:
        with StaticSite(tmp_path) as site:
            await page.goto(f"{site.origin}/task.html")
            assert await page.evaluate("document.characterSet") == "UTF-8"
            assert await page.inner_text("button") == HELP
            assert await page.inner_text("p") == "It\u2019s here."
            await page.goto(f"{site.origin}/script.html")
            assert await page.title() == HELP
    finally:
        await page.close()


async def test_a_page_in_another_encoding_keeps_its_own(browser: Browser, tmp_path: Path) -> None:
    # latin-1 bytes are no UTF-8: the page is served as before, and its own declaration holds
    (tmp_path / "old.html").write_bytes(
        "<!doctype html><meta charset=iso-8859-1><title>Caf\u00e9</title><p>Caf\u00e9</p>".encode("latin-1")
    )
    page = await browser.new_page()
    try:
        with StaticSite(tmp_path) as site:
            response = await page.goto(f"{site.origin}/old.html")
            assert response is not None and "charset" not in response.headers["content-type"]
            assert await page.inner_text("p") == "Caf\u00e9"
    finally:
        await page.close()
