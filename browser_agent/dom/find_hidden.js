// Where the page hides a text: for each needle (lower case), the first element holding it that is not
// shown, and the indexed element that opens the closed part it sits in. Run in one frame with the ids of
// the elements the page view indexed (the registry of extract.js): an opener the model cannot name by
// an index is no use to it. A shown text counts only when it is not the page writing the task out (a
// task page that prints its own instructions). Returns [{needle, opener}] for the needles found hidden
// and nowhere shown.
(args) => {
  const reg = window.__browserAgent;
  if (!reg || !document.body) return [];
  const indexed = new Set(args.ids);
  const idOf = (el) => {
    const id = reg.ids.get(el);
    return id && indexed.has(id) ? id : null;
  };
  const shown = (el) => (el.checkVisibility
    ? el.checkVisibility({ visibilityProperty: true })
    : el.getClientRects().length > 0);
  // The outermost ancestor of el that is not shown while its parent is: the closed part.
  const closedPart = (el) => {
    let part = null;
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (!shown(e) && e.parentElement && shown(e.parentElement)) { part = e; break; }
    }
    return part;
  };
  const controls = (part) => {
    // An element that says it controls the part (ARIA tabs, disclosure buttons) or links to it.
    for (let e = part; e && e !== document.body; e = e.parentElement) {
      if (!e.id) continue;
      const id = CSS.escape(e.id);
      for (const c of document.querySelectorAll(`[aria-controls~="${id}"], a[href="#${id}"]`)) {
        const found = idOf(c) || [...c.querySelectorAll("*")].map(idOf).find(Boolean);
        if (found) return found;
        for (let p = c.parentElement, n = 0; p && n < 2; p = p.parentElement, n++) {
          if (idOf(p)) return idOf(p);
        }
      }
    }
    return null;
  };
  const before = (part) => {
    // The header drawn just before the part: a summary, an accordion header, a tree folder's name.
    for (let s = part.previousElementSibling; s; s = s.previousElementSibling) {
      if (!shown(s)) continue;
      const own = idOf(s);
      if (own) return own;
      // A heading holding one control (an accordion header's link); a paragraph with a link is no header.
      const heading = /^(H[1-6]|SUMMARY|DT|LEGEND)$/.test(s.tagName) || s.getAttribute("role") === "heading";
      const inside = [...s.querySelectorAll("*")].map(idOf).filter(Boolean);
      return heading && inside.length === 1 ? inside[0] : null;
    }
    return null;
  };
  const norm = (s) => s.toLowerCase().replace(/\s+/g, " ").trim();
  const task = norm(args.task);
  // Whether el's text is part of a block that only repeats the task (the first ancestor longer than
  // a name, within three levels).
  const echo = (el, needle) => {
    for (let e = el, n = 0; e && n < 3; e = e.parentElement, n++) {
      const text = norm(e.textContent || "");
      if (text.length > needle.length + 10) return task.includes(text);
    }
    return false;
  };
  const out = [];
  for (const needle of args.needles) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let hidden = null;
    let visible = false;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.data.toLowerCase().replace(/\s+/g, " ").includes(needle)) continue;
      const el = t.parentElement;
      if (!el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"].includes(el.tagName)) continue;
      if (shown(el)) {
        if (echo(el, needle)) continue;
        visible = true;
        break;
      }
      if (!hidden) hidden = el;
    }
    if (visible || !hidden) continue;
    const part = closedPart(hidden);
    const opener = part && (controls(part) || before(part));
    if (opener) out.push({ needle, opener });
  }
  return out;
}
