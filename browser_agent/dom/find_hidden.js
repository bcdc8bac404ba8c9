// Where the page hides a text: for each needle (lower case), the first element holding it that is not
// shown, and the indexed element that opens the closed part it sits in. Run in one frame with the ids of
// the elements the page view indexed (the registry of extract.js): an opener the model cannot name by
// an index is no use to it. The task itself is not sent to the page: for each needle found hidden with an
// opener, the blocks its shown copies sit in come back (``shown_in``), and the caller drops the needle
// unless every one of them is the page printing the task out. Returns [{needle, opener, shown_in}].
(args) => {
  const BLOCK_CAP = 400;
  const SHOWN_CAP = 8;
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
  // The block a shown text sits in, for the caller to tell a page printing the task from one showing
  // the name: the first ancestor longer than the name, within three levels; "" for a label-like text or
  // a block too long to be the task.
  const block = (el, needle) => {
    for (let e = el, n = 0; e && n < 3; e = e.parentElement, n++) {
      const text = norm(e.textContent || "");
      if (text.length > needle.length + 10) return text.length <= BLOCK_CAP ? text : "";
    }
    return "";
  };
  const out = [];
  for (const needle of args.needles) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let hidden = null;
    const shownIn = [];
    for (let t = walker.nextNode(); t && shownIn.length < SHOWN_CAP; t = walker.nextNode()) {
      if (!norm(t.data).includes(needle)) continue;
      const el = t.parentElement;
      if (!el || ["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE"].includes(el.tagName)) continue;
      if (shown(el)) {
        shownIn.push(block(el, needle));
        if (shownIn[shownIn.length - 1] === "") break; // shown as itself: nothing more to learn
      } else if (!hidden) hidden = el;
    }
    const part = hidden && closedPart(hidden);
    const opener = part && (controls(part) || before(part));
    if (opener) out.push({ needle, opener, shown_in: shownIn });
  }
  return out;
}
