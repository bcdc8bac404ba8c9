// One walk over one frame's DOM: indexed elements and visible text in document order, as ONE JSON string.
// Run by browser_agent.dom.extractor in every frame. Nothing on the page is modified: element ids live
// in an in-page registry (a WeakMap element -> id, a Map id -> WeakRef) kept on window.__browserAgent.
// The body goes on in extract_element.js (what one element says), extract_widgets.js (wrapped selects,
// modals) and extract_layout.js (scroll panels, tables): the extractor inserts them at the "parts" line
// below, so they share this scope. They only declare functions and constants; the walk is here.
(opts) => {
  const o = opts || {};
  const offX = o.offsetX || 0;
  const offY = o.offsetY || 0;
  const topW = o.viewportWidth || innerWidth;
  const topH = o.viewportHeight || innerHeight;
  const clip = o.clip || { x: 0, y: 0, width: topW, height: topH };
  const margin = o.margin || 0;
  const TEXT_CAP = o.textCap || 160;
  let textBudget = o.textTotal || 1500;
  const NAME_CAP = o.nameCap || 60;
  const OPTION_CAP = o.optionCap || 40;
  const VALUE_TAIL = o.valueTail || 20;
  const ATTRIBUTE_CAP = o.attributeCap || 120;
  // Uncut: texts come back whole, for the caller to redact its secrets in them before it cuts them (a
  // cut here would leave part of a secret that no longer matches). Every decision below is still taken
  // on the lengths after the cut, so both ways read the same page the same way.
  const UNCUT = !!o.uncut;
  const CHAIN = 6; // ancestors (self included) kept per item: tells which card or row an item sits in

  let reg = window.__browserAgent;
  if (!reg || reg.v !== 1) {
    const token = Math.random().toString(36).slice(2, 8);
    reg = {
      v: 1, token, n: 0, ids: new WeakMap(), refs: new Map(),
      idOf(el) {
        let id = this.ids.get(el);
        if (!id) {
          id = this.token + "." + (++this.n);
          this.ids.set(el, id);
          this.refs.set(id, new WeakRef(el));
        }
        return id;
      },
      get(id) {
        const ref = this.refs.get(id);
        const el = ref && ref.deref();
        return el && el.isConnected ? el : null;
      },
    };
    Object.defineProperty(window, "__browserAgent", { value: reg, configurable: true });
  }
  const hooks = window.__browserAgentHooks || null;

  const SKIP = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "title", "base"]);
  const LEAF = new Set(["select", "textarea", "input", "svg", "img", "video", "audio", "canvas", "object",
    "embed", "math", "option", "datalist"]);
  const ROLES = new Set(["button", "link", "checkbox", "radio", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "combobox", "listbox", "switch", "slider", "textbox", "treeitem", "searchbox",
    "spinbutton"]);

  const cutText = (s, cap) => {
    const t = s.replace(/\s+/g, " ").trim();
    return t.length > cap ? t.slice(0, cap - 1) + "…" : t;
  };
  const clean = UNCUT ? (s) => s.replace(/\s+/g, " ").trim() : cutText;
  // A field's long value keeps its end too: where typing goes on, and the last word of a text area.
  // Whole words either side of the cut (text_limits.cut_value does the same): half a word read as one
  // ("rna." for "urna."), and the word before a bare "…" was taken for the last.
  const cutValue = (s, cap) => {
    const t = s.replace(/\s+/g, " ").trim();
    if (t.length <= cap) return t;
    let head = t.slice(0, cap - VALUE_TAIL - 3), from = t.length - VALUE_TAIL;
    if (t[head.length] !== " ") { const sp = head.lastIndexOf(" "); if (sp > head.length / 2) head = head.slice(0, sp); }
    if (t[from - 1] !== " ") { const sp = t.indexOf(" ", from); if (sp !== -1 && sp < t.length - 1) from = sp + 1; }
    return head.trimEnd() + " … " + t.slice(from).trimStart();
  };
  const cleanValue = UNCUT ? clean : cutValue;
  const rootOf = (el) => el.getRootNode();
  const shadowOf = (el) => el.shadowRoot || (hooks && hooks.shadows && hooks.shadows.get(el)) || null;

  const out = [];
  const holes = {}; // the iframes in view, by hole id
  // Ids of the elements being visited, outermost first; numbers are per capture, only compared within it.
  const stack = [];
  const blocks = []; // the ids of the block-level elements among them
  let seq = 0;
  let elementsAbove = 0; // interactive elements above the view, and below it
  let elementsBelow = 0;

  // ---- parts ----

  // Why an element is a control by itself: "role", "native", "editor", "tabindex" (it takes the focus and
  // nothing more: a box of other controls, such as a keyboard menu, is no control), or "" when it is none.
  function strongKind(el, tag, role) {
    if (role && ROLES.has(role.trim().split(" ")[0])) return "role";
    switch (tag) {
      case "a": return el.hasAttribute("href") ? "native" : "";
      case "button": case "select": case "textarea": case "summary": return "native";
      case "input": return el.type !== "hidden" ? "native" : "";
      default: break;
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return "editor";
    const tab = el.getAttribute("tabindex");
    const focusable = tab !== null && parseInt(tab, 10) >= 0 && tag !== "body" && tag !== "html" && tag !== "dialog";
    if (!focusable) return "";
    return el.isContentEditable ? "editor" : "tabindex";
  }

  function weakKind(el, tag, style, parentPointer) {
    if (tag === "body" || tag === "html") return false;
    if (tag === "label" && el.control && (rendered(el.control) || inWidget(el.control))) return false;
    if (el.hasAttribute("onclick") || typeof el.onclick === "function") return true;
    if (hooks && hooks.clicky && hooks.clicky.has(el)) return true;
    return style.cursor === "pointer" && !parentPointer;
  }

  function rendered(el) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const s = getComputedStyle(el);
    return s.visibility === "visible" && s.opacity !== "0";
  }

  function hits(el, x, y) {
    let hit = document.elementFromPoint(x, y);
    for (let i = 0; hit && i < 20; i++) {
      const sr = shadowOf(hit);
      const inner = sr && sr.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return true;
    return false;
  }

  // Whether a click can reach the element: its centre or top-left corner is on top, or else another
  // point of a 3x3 grid over it (a button half under another, a link under a sticky bar's edge: a person
  // clicks the part that shows, and so does click_element).
  function onTop(el, r) {
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, innerWidth);
    const y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, innerHeight);
    if (x1 <= x0 || y1 <= y0) return true; // outside this frame's own viewport: cannot be hit-tested
    if (hits(el, (x0 + x1) / 2, (y0 + y1) / 2)) return true;
    if (hits(el, x0 + Math.min(4, (x1 - x0) / 2), y0 + Math.min(4, (y1 - y0) / 2))) return true;
    for (const fy of [1 / 6, 1 / 2, 5 / 6]) {
      for (const fx of [1 / 6, 1 / 2, 5 / 6]) {
        if (fx === 1 / 2 && fy === 1 / 2) continue;
        if (hits(el, x0 + (x1 - x0) * fx, y0 + (y1 - y0) * fy)) return true;
      }
    }
    return false;
  }

  // Where the element's box is relative to what can be seen: 0 in view, -1 above the view, 1 below it,
  // 2 beside it, 3 outside the box of a scroll panel it sits in (that panel and side are in `hidden`).
  const hidden = { panel: null, side: "" };
  function place(r) {
    const x = r.left + offX, y = r.top + offY;
    if (panels.length) {
      const side = panelSide(x, y, r);
      if (side) return 3;
    }
    const cx0 = Math.max(clip.x, 0), cx1 = Math.min(clip.x + clip.width, topW);
    const cy0 = Math.max(clip.y, 0) - margin, cy1 = Math.min(clip.y + clip.height, topH) + margin;
    if (y + r.height <= cy0) return -1;
    if (y >= cy1) return 1;
    if (x + r.width <= cx0 || x >= cx1) return 2;
    return 0;
  }

  const BOX = ["paddingLeft", "paddingRight", "marginLeft", "marginRight", "borderLeftWidth", "borderRightWidth"];
  const bare = (style) => BOX.every((k) => parseFloat(style[k]) === 0);
  // Whether the element draws something of its own at that side: a box edge, or content before or after
  // it (a "·" between a date and a reading time).
  const drawsBeside = (el, style, side) => {
    if (!bare(style)) return true;
    const content = getComputedStyle(el, side).content;
    return content !== "none" && content !== "normal" && content !== "";
  };

  function frameHole(el) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || place(r) !== 0 || !onTop(el, r)) return;
    const id = reg.idOf(el);
    const cx = r.left + offX + el.clientLeft, cy = r.top + offY + el.clientTop;
    const x0 = Math.max(cx, clip.x), y0 = Math.max(cy, clip.y);
    const x1 = Math.min(cx + el.clientWidth, clip.x + clip.width), y1 = Math.min(cy + el.clientHeight, clip.y + clip.height);
    holes[id] = {
      x: cx, y: cy, name: el.getAttribute("name") || el.id || "", src: el.src || "",
      clip: { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) },
    };
    out.push({ kind: "frame", hole_id: id });
  }

  // Whether the next text goes on the last one's word: no space, and no element between them that is more
  // than a piece of the line or draws something beside its text (a margin, a border, a "·" of its own):
  // "Hel<b>lo</b>", and letters each in a bare inline-block span (a split-letter heading, a distorted
  // captcha) read as one word, not one letter a line.
  let glued = false;
  function addText(node, owner, parentEl, parentBox) {
    const raw = node.nodeValue;
    if (!raw || !/\S/.test(raw)) { glued = false; return; }
    if (owner) {
      owner.own += 1;
      const rec = owner.rec;
      if (rec && !rec.skipText && rec.text.length < NAME_CAP) rec.text = clean(rec.text + " " + raw, NAME_CAP);
      return;
    }
    if (textBudget <= 0) return;
    if (!parentBox.r) parentBox.r = parentEl.getBoundingClientRect();
    if (place(parentBox.r) !== 0) return;
    const cap = Math.min(TEXT_CAP, textBudget + 1);
    const t = clean(raw, cap);
    if (!t) return;
    const n = Math.min(t.length, cap); // its length once cut, here or by the caller
    textBudget -= n;
    const last = out[out.length - 1];
    const up = stack.slice(-CHAIN);
    const blk = blocks[blocks.length - 1];
    // Texts merge into one run only inside one block: a heading and the card under it stay apart.
    const sep = glued && !/^[\s|·•]/.test(raw) ? "" : " ";
    glued = !/[\s|·•]$/.test(raw);
    if (last && last.kind === "text" && last.blk === blk && last.cut_length + sep.length + n < TEXT_CAP) {
      last.text += sep + t;
      last.cut_length += sep.length + n;
      last.chain = last.chain.filter((id) => up.includes(id)); // a merged run belongs to what holds all its parts
    } else out.push(inCell({ kind: "text", text: t, cut_length: n, chain: up, blk }));
  }

  // owner: the nearest candidate ancestor {rec|null, weak, own, sub}; text and candidates below count toward it.
  // Children are followed by nextSibling (much cheaper than iterating childNodes); a slot walks the nodes
  // assigned to it, a shadow host its shadow root.
  function walk(parent, parentTag, owner, parentPointer, parentVisible, inShadow) {
    const box = {};
    if (parentTag === "slot") {
      const assigned = parent.assignedNodes();
      if (assigned.length) {
        for (const node of assigned) take(node, parent, owner, parentPointer, parentVisible, inShadow, box);
        return;
      }
    }
    for (let node = (shadowOf(parent) || parent).firstChild; node; node = node.nextSibling) {
      take(node, parent, owner, parentPointer, parentVisible, inShadow, box);
    }
  }

  function take(node, parent, owner, parentPointer, parentVisible, inShadow, box) {
    if (node.nodeType === 3) {
      if (parentVisible) addText(node, owner, parent, box);
    } else if (node.nodeType === 1) visit(node, owner, parentPointer, inShadow);
  }

  function visit(el, owner, parentPointer, inShadow) {
    const tag = el.localName;
    if (SKIP.has(tag) || (widgets.size && concealedSelects.has(el))) return;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.opacity === "0" || el.getAttribute("aria-hidden") === "true") return;
    if (tag === "iframe" || tag === "frame") { if (style.visibility === "visible") frameHole(el); return; }
    const visible = style.visibility === "visible" && style.contentVisibility !== "hidden";
    stack.push(++seq);
    const block = style.display !== "inline" && style.display !== "contents";
    // A bare inline-block (no padding, border or margin) is a piece of its line: its text runs on with
    // the line's. One with a box of its own (a tag, a chip) stands apart, as a block does.
    const piece = !block || (style.display === "inline-block" && bare(style));
    if (glued && (!piece || LEAF.has(tag) || tag === "br" || !el.textContent || drawsBeside(el, style, "::before"))) {
      glued = false; // an element with no text between two (a divider drawn by the page's style) parts them
    }
    if (!piece) blocks.push(seq);
    const role = el.getAttribute("role");
    const select = widgets.size ? widgets.get(el) : undefined; // the hidden native select it stands for
    const sealed = owner !== null && owner.sealed; // inside a widget: its parts are not indexed apart
    const kind = visible && !sealed && !select ? strongKind(el, tag, role) : "";
    const strong = visible && !sealed && (!!select || kind !== "");
    const weak = visible && !sealed && !strong && weakKind(el, tag, style, parentPointer);
    let mine = owner;
    if (strong || weak) mine = candidate(el, tag, owner, weak, inShadow, select);
    if (kind === "tabindex" && mine !== owner) mine.box = true;
    // A control whose text a far negative indent pushes off the screen (the image-replacement trick:
    // jQuery UI's dialog close button, a logo link) shows its icon; the text only names it.
    if (mine !== owner && mine.rec && parseFloat(style.textIndent) < -999) mine.rec.textHidden = true;
    const table = tableNow || role || tag === "table" ? enterTable(el, tag, role) : null;
    const panel = visible && block && !sealed && !select && el.firstChild !== null
      ? openPanel(el, tag, style, mine !== owner ? mine.rec : null) : null;
    if (tag === "details" && !el.open) {
      // A closed <details> shows its summary only; the rest is hidden by its own shadow root, unseen here.
      const summary = el.querySelector(":scope > summary");
      if (summary) visit(summary, panel ? owner : mine, style.cursor === "pointer", inShadow);
    } else if (!LEAF.has(tag)) {
      const sr = shadowOf(el);
      walk(el, tag, panel ? owner : mine, style.cursor === "pointer", visible, inShadow || !!sr);
    }
    if (panel) closePanel(panel);
    if (table) leaveTable(table);
    stack.pop();
    if (!piece) blocks.pop();
    if (glued && (!piece || drawsBeside(el, style, "::after"))) glued = false;
    if (mine !== owner) { finish(mine, owner, el); glued = false; }
  }

  // The owner record for an interactive element: indexed when in view and on top, counted when out of view.
  function candidate(el, tag, owner, weak, inShadow, select) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return owner;
    const where = place(r);
    const sealed = !!select;
    if (where === 0 && onTop(el, r)) {
      const rec = select ? selectRecord(el, select, r, inShadow) : makeRecord(el, tag, r, weak, inShadow);
      out.push(inCell(rec));
      return { rec, weak, own: 0, sub: 0, where, r, sealed };
    }
    if (where === -1 || where === 1) return { rec: null, weak, own: 0, sub: 0, where, r, sealed };
    if (where === 3) return { rec: null, weak, own: 0, sub: 0, where, r, sealed, panel: hidden.panel, side: hidden.side };
    return owner;
  }

  function finish(mine, owner, el) {
    const area = mine.r.width * mine.r.height;
    const wrapper = mine.weak && mine.sub > 0 && (mine.own === 0 || area > 0.5 * topW * topH);
    if (owner) owner.held = (owner.held || 0) + 1 + (mine.held || 0); // candidates below, at any depth
    // A box that is focusable and nothing more (a menu or suggestion list whose items are the controls)
    // is no control of its own: its items are.
    const box = mine.box && mine.held > 0 && mine.own === 0 && !(mine.rec && mine.rec.panel);
    if (wrapper || box) { if (mine.rec) mine.rec.drop = true; return; }
    const rec = mine.rec;
    if (rec && /^[a-z]/.test(rec.text)) splitLigature(rec, el);
    if (rec && rec.textHidden && rec.text) [rec.name, rec.text] = [rec.name || rec.text, ""];
    if (rec && (!rec.name || rec.textHidden) && !rec.text && !rec.icon && !rec.panel) rec.icon = iconHint(el, rec.tag);
    if (rec && !mine.weak && mine.sub === 1 && mine.own === 0 && mine.child) absorb(rec, mine.child, el);
    if (owner) { owner.sub += 1; owner.child = rec && rec.drop ? mine.child : rec; }
    if (mine.where === -1) elementsAbove += 1;
    else if (mine.where === 1) elementsBelow += 1;
    else if (mine.where === 3) mine.panel.hides[mine.side] += 1;
  }

  // One control drawn as two: an element whose whole content is one other control with its name (jQuery
  // UI's <li role=tab> around its <a role=presentation>, a link around a button) is indexed once, as the
  // inner one, the part a click lands on, wearing the outer one's role and states.
  function absorb(outer, inner, el) {
    if (inner.weak || inner.drop || inner.tag === "select" || el.isContentEditable) return;
    const label = inner.name || inner.text;
    if (!label || outer.text) return;
    // An outer one that says more than the inner (a role or a state) must be named as the inner is.
    if (outer.name ? outer.name !== label : outer.role || outer.states.length) return;
    outer.drop = true;
    if (outer.role && (!inner.role || inner.role === "presentation" || inner.role === "none")) {
      inner.role = outer.role;
      inner.attributes.role = outer.role;
    }
    const mineStates = new Set(inner.states.map((s) => s.split("=")[0]));
    inner.states = [...outer.states.filter((s) => !mineStates.has(s.split("=")[0])), ...inner.states];
    if (outer.attributes["aria-haspopup"] && !inner.attributes["aria-haspopup"]) {
      inner.attributes["aria-haspopup"] = outer.attributes["aria-haspopup"];
    }
  }

  const widgets = findWidgets(document.getElementsByTagName("select")); // widget -> the select it stands for
  const concealedSelects = new Set(widgets.values());
  const modal = findModal();
  const root = modal || document.documentElement;
  if (root) visit(root, null, false, false);
  const items = [];
  for (const it of out) {
    if (it.drop) continue;
    if (it.kind === "element") { delete it.own; delete it.sub; delete it.drop; delete it.skipText; delete it.textHidden; }
    else if (it.kind === "text") { delete it.blk; if (!UNCUT) delete it.cut_length; }
    items.push(it);
  }
  const se = document.scrollingElement || document.documentElement;
  // Where the page's main content begins: an unstyled page's first screens are often its navigation.
  const main = document.querySelector('main, article, [role="main"]');
  const mainTop = main ? main.getBoundingClientRect().top + window.scrollY : -1;
  return JSON.stringify({
    document_token: reg.token, title: document.title, items, frame_holes: holes,
    elements_above: elementsAbove, elements_below: elementsBelow, modal: !!modal,
    page_scroll: {
      scroll_y: window.scrollY, viewport_height: innerHeight, page_height: se ? se.scrollHeight : innerHeight,
      main_top: mainTop,
    },
  });
}
