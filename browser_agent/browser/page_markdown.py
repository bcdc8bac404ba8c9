"""The text of a whole page as markdown-ish lines, one block a line: what ``extract_content`` ranks, and
what the page view's passages for the task (``agent/task_passages.py``) are taken from."""

from __future__ import annotations

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError

__all__ = ["page_markdown"]

# Walks the visible DOM (open shadow roots included) and writes headings, links, list items, table
# rows and paragraphs as markdown; scripts, styles and hidden subtrees are left out.
_MARKDOWN_JS = r"""() => {
  const out = [];
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD']);
  const block = new Set(['P', 'DIV', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER', 'FOOTER', 'NAV', 'ASIDE',
                         'FORM', 'UL', 'OL', 'TABLE', 'TR', 'BR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'LI',
                         'PRE', 'BLOCKQUOTE', 'FIGURE', 'DL', 'DT', 'DD', 'LABEL']);
  const hidden = (e) => {
    const s = getComputedStyle(e);
    return s.display === 'none' || s.visibility === 'hidden';
  };
  const walk = (node) => {
    if (node.nodeType === 3) { out.push(node.textContent.replace(/\s+/g, ' ')); return; }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const el = node;
    if (el.nodeType === 1 && (skip.has(el.tagName.toUpperCase()) || hidden(el))) return;
    const tag = el.nodeType === 1 ? el.tagName.toUpperCase() : '';
    if (block.has(tag)) out.push('\n');
    if (/^H[1-6]$/.test(tag)) out.push('#'.repeat(+tag[1]) + ' ');
    if (tag === 'LI') out.push('- ');
    if (tag === 'TD' || tag === 'TH') out.push(' | ');
    if (tag === 'A' && el.href) {
      out.push('[' + el.innerText.trim().replace(/\s+/g, ' ') + '](' + el.href + ')');
      return;
    }
    if (tag === 'IMG' && el.alt) { out.push('![' + el.alt + ']'); return; }
    const field = tag === 'INPUT' || tag === 'TEXTAREA';
    if (field && el.type !== 'password' && el.value) out.push(' [' + el.value + '] ');
    if (el.shadowRoot) walk(el.shadowRoot);
    for (const child of el.childNodes) walk(child);
    if (block.has(tag)) out.push('\n');
  };
  walk(document.body || document.documentElement);
  return out.join('').replace(/[ \t]+\n/g, '\n').replace(/\n[ \t]+/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
}"""


async def page_markdown(page: Page) -> str:
    """The text of every frame of ``page`` (not only the visible part), as markdown-ish text."""
    parts = []
    for frame in page.frames:
        try:
            text = await frame.evaluate(_MARKDOWN_JS)
        except PlaywrightError:
            continue  # a frame that navigated or closed meanwhile has nothing to add
        if text:
            parts.append(text if frame is page.main_frame else f"[frame {frame.url}]\n{text}")
    return "\n\n".join(parts)
