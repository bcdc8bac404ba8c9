// One walk over one frame's DOM: indexed elements and visible text in document order, as ONE JSON string.
// Run by browser_agent.dom.extractor in every frame. Nothing on the page is modified: element ids live
// in an in-page registry (a WeakMap element -> id, a Map id -> WeakRef) kept on window.__browserAgent.
(opts) => {
  const o = opts || {};
  const offX = o.offsetX || 0;
  const offY = o.offsetY || 0;
  const topW = o.viewportWidth || innerWidth;
  const topH = o.viewportHeight || innerHeight;
  const clip = o.clip || { x: 0, y: 0, w: topW, h: topH };
  const margin = o.margin || 0;
  const TEXT_CAP = o.textCap || 80;
  let textBudget = o.textTotal || 1500;
  const NAME_CAP = 60;
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
  const KEEP = ["id", "name", "type", "placeholder", "aria-label", "title", "href", "data-testid", "alt", "role",
    "for", "aria-haspopup", "class"];
  const BUTTON_TYPES = new Set(["button", "submit", "reset", "image"]);

  const clean = (s, cap) => {
    const t = s.replace(/\s+/g, " ").trim();
    return t.length > cap ? t.slice(0, cap - 1) + "…" : t;
  };
  const rootOf = (el) => el.getRootNode();
  const shadowOf = (el) => el.shadowRoot || (hooks && hooks.shadows && hooks.shadows.get(el)) || null;

  const out = [];
  const frames = {};
  // Ids of the elements being visited, outermost first; numbers are per capture, only compared within it.
  const stack = [];
  const blocks = []; // the ids of the block-level elements among them
  let seq = 0;
  let above = 0;
  let below = 0;

  function strongKind(el, tag) {
    const role = el.getAttribute("role");
    if (role && ROLES.has(role.trim().split(" ")[0])) return true;
    switch (tag) {
      case "a": return el.hasAttribute("href");
      case "button": case "select": case "textarea": case "summary": return true;
      case "input": return el.type !== "hidden";
      default: break;
    }
    if (el.isContentEditable && !(el.parentElement && el.parentElement.isContentEditable)) return true;
    const tab = el.getAttribute("tabindex");
    return tab !== null && parseInt(tab, 10) >= 0 && tag !== "body" && tag !== "html" && tag !== "dialog";
  }

  function weakKind(el, tag, style, parentPointer) {
    if (tag === "body" || tag === "html") return false;
    if (tag === "label" && el.control && rendered(el.control)) return false;
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

  function onTop(el, r) {
    const x0 = Math.max(r.left, 0), x1 = Math.min(r.right, innerWidth);
    const y0 = Math.max(r.top, 0), y1 = Math.min(r.bottom, innerHeight);
    if (x1 <= x0 || y1 <= y0) return true; // outside this frame's own viewport: cannot be hit-tested
    const points = [[(x0 + x1) / 2, (y0 + y1) / 2], [x0 + Math.min(4, (x1 - x0) / 2), y0 + Math.min(4, (y1 - y0) / 2)]];
    for (const [x, y] of points) {
      let hit = document.elementFromPoint(x, y);
      for (let i = 0; hit && i < 20; i++) {
        const sr = shadowOf(hit);
        const inner = sr && sr.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      for (let n = hit; n; n = n.parentNode || n.host) if (n === el) return true;
    }
    return false;
  }

  function labelText(el) {
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const root = rootOf(el);
      const parts = by.split(/\s+/).map((id) => {
        const t = root.getElementById ? root.getElementById(id) : document.getElementById(id);
        return t ? t.textContent : "";
      });
      const s = clean(parts.join(" "), NAME_CAP);
      if (s) return s;
    }
    if (el.labels && el.labels.length) {
      const s = clean(Array.from(el.labels, (l) => l.textContent).join(" "), NAME_CAP);
      if (s) return s;
    }
    return "";
  }

  function nameOf(el, tag) {
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return clean(aria, NAME_CAP);
    const label = labelText(el);
    if (label) return label;
    for (const key of ["alt", "title"]) {
      const v = el.getAttribute(key);
      if (v && v.trim()) return clean(v, NAME_CAP);
    }
    if (tag === "input" && BUTTON_TYPES.has(el.type) && el.value) return clean(el.value, NAME_CAP);
    const ph = el.getAttribute("placeholder");
    if (ph && ph.trim()) return clean(ph, NAME_CAP);
    const inner = el.querySelector("svg title, img[alt], [aria-label]");
    if (inner) {
      const v = inner.localName === "title" ? inner.textContent : inner.getAttribute(inner.localName === "img" ? "alt" : "aria-label");
      if (v && v.trim()) return clean(v, NAME_CAP);
    }
    return "";
  }

  function statesOf(el, tag) {
    const st = [];
    const t = el.type;
    if ((t === "checkbox" || t === "radio") && tag === "input") { if (el.checked) st.push("checked"); }
    for (const key of ["aria-checked", "aria-selected", "aria-expanded", "aria-pressed"]) {
      const v = el.getAttribute(key);
      if (v !== null) st.push(key.slice(5) + "=" + v);
    }
    if (tag === "summary" && el.parentElement && el.parentElement.localName === "details") {
      st.push("expanded=" + el.parentElement.open);
    }
    if (el.disabled || el.getAttribute("aria-disabled") === "true") st.push("disabled");
    if (el.required) st.push("required");
    if (el.readOnly && (tag === "input" || tag === "textarea")) st.push("readonly");
    if (tag === "select") {
      const sel = el.selectedOptions && el.selectedOptions[0];
      if (sel) st.push('value="' + clean(sel.textContent, NAME_CAP) + '"');
    } else if ((tag === "input" && !BUTTON_TYPES.has(t) && t !== "checkbox" && t !== "radio") || tag === "textarea") {
      if (el.value) st.push(t === "password" ? "filled" : 'value="' + clean(el.value, NAME_CAP) + '"');
    }
    return st;
  }

  function attrsOf(el, tag) {
    const a = {};
    for (const key of KEEP) {
      const v = el.getAttribute(key);
      if (v !== null && v !== "") a[key] = v.length > 120 ? v.slice(0, 120) : v;
    }
    if ((tag === "button" || (tag === "input" && BUTTON_TYPES.has(el.type))) && el.value) a.value = clean(el.value, NAME_CAP);
    return a;
  }

  function signature(el) {
    let s = el.localName;
    if (el.id) s += "#" + el.id;
    const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/).slice(0, 2) : [];
    for (const c of cls) if (c) s += "." + c;
    return s;
  }

  function ancestorsOf(el) {
    const res = [];
    let n = el.parentNode;
    while (n && res.length < 5) {
      if (n.nodeType === 11) { n = n.host; continue; }
      if (n.nodeType !== 1 || n.localName === "body" || n.localName === "html") break;
      res.push(signature(n));
      n = n.parentNode;
    }
    return res;
  }

  function siblingIndex(el) {
    let i = 0;
    for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === el.localName) i++;
    return i;
  }

  function optionsOf(el) {
    const opts = el.options ? Array.from(el.options) : [];
    const shown = opts.slice(0, 8).map((op) => (op.selected ? "✓" : "") + clean(op.textContent, 40));
    return [shown, Math.max(0, opts.length - 8)];
  }

  function makeRecord(el, tag, r, weak, inShadow) {
    const rec = {
      k: "e", id: reg.idOf(el), tag, role: el.getAttribute("role"), name: nameOf(el, tag), text: "",
      attrs: attrsOf(el, tag), states: statesOf(el, tag),
      x: r.left + offX, y: r.top + offY, w: r.width, h: r.height,
      anc: ancestorsOf(el), sib: siblingIndex(el), sh: inShadow, weak, own: 0, sub: 0, drop: false,
      up: stack.slice(-CHAIN),
    };
    if (tag === "select") [rec.opts, rec.more] = optionsOf(el);
    if (tag === "textarea" || tag === "select") rec.skipText = true;
    return rec;
  }

  // Where the element's box is relative to the visible area: 0 inside, -1 above, 1 below, 2 sideways.
  function place(r) {
    const x = r.left + offX, y = r.top + offY;
    const cx0 = Math.max(clip.x, 0), cx1 = Math.min(clip.x + clip.w, topW);
    const cy0 = Math.max(clip.y, 0) - margin, cy1 = Math.min(clip.y + clip.h, topH) + margin;
    if (y + r.height <= cy0) return -1;
    if (y >= cy1) return 1;
    if (x + r.width <= cx0 || x >= cx1) return 2;
    return 0;
  }

  function frameHole(el) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || place(r) !== 0 || !onTop(el, r)) return;
    const id = reg.idOf(el);
    const cx = r.left + offX + el.clientLeft, cy = r.top + offY + el.clientTop;
    const x0 = Math.max(cx, clip.x), y0 = Math.max(cy, clip.y);
    const x1 = Math.min(cx + el.clientWidth, clip.x + clip.w), y1 = Math.min(cy + el.clientHeight, clip.y + clip.h);
    frames[id] = { x: cx, y: cy, name: el.getAttribute("name") || el.id || "", src: el.src || "", clip: { x: x0, y: y0, w: Math.max(0, x1 - x0), h: Math.max(0, y1 - y0) } };
    out.push({ k: "f", id });
  }

  function addText(node, owner, parentEl, parentBox) {
    const raw = node.nodeValue;
    if (!raw || !/\S/.test(raw)) return;
    if (owner) {
      owner.own += 1;
      if (owner.rec && !owner.rec.skipText && owner.rec.text.length < NAME_CAP) {
        owner.rec.text = clean(owner.rec.text + " " + raw, NAME_CAP);
      }
      return;
    }
    if (textBudget <= 0) return;
    if (!parentBox.r) parentBox.r = parentEl.getBoundingClientRect();
    if (place(parentBox.r) !== 0) return;
    const t = clean(raw, Math.min(TEXT_CAP, textBudget + 1));
    if (!t) return;
    textBudget -= t.length;
    const last = out[out.length - 1];
    const up = stack.slice(-CHAIN);
    const blk = blocks[blocks.length - 1];
    // Texts merge into one run only inside one block: a heading and the card under it stay apart.
    if (last && last.k === "t" && last.blk === blk && last.text.length + t.length < TEXT_CAP) {
      last.text += " " + t;
      last.up = last.up.filter((id) => up.includes(id)); // a merged run belongs to what holds all its parts
    } else out.push({ k: "t", text: t, up, blk });
  }

  function childrenOf(el, tag) {
    if (tag === "slot") {
      const assigned = el.assignedNodes();
      return assigned.length ? assigned : el.childNodes;
    }
    const sr = el.nodeType === 1 ? shadowOf(el) : null;
    return sr ? sr.childNodes : el.childNodes;
  }

  // owner: the nearest candidate ancestor {rec|null, weak, own, sub}; text and candidates below count toward it.
  function walk(parent, parentTag, owner, parentPointer, parentVisible, inShadow) {
    const box = {};
    for (const node of childrenOf(parent, parentTag)) {
      if (node.nodeType === 3) {
        if (parentVisible) addText(node, owner, parent.nodeType === 1 ? parent : parent.host, box);
        continue;
      }
      if (node.nodeType !== 1) continue;
      visit(node, owner, parentPointer, inShadow);
    }
  }

  function visit(el, owner, parentPointer, inShadow) {
    const tag = el.localName;
    if (SKIP.has(tag)) return;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.opacity === "0" || el.getAttribute("aria-hidden") === "true") return;
    if (tag === "iframe" || tag === "frame") { if (style.visibility === "visible") frameHole(el); return; }
    const visible = style.visibility === "visible" && style.contentVisibility !== "hidden";
    stack.push(++seq);
    const block = style.display !== "inline" && style.display !== "contents";
    if (block) blocks.push(seq);
    const strong = visible && strongKind(el, tag);
    const weak = visible && !strong && weakKind(el, tag, style, parentPointer);
    let mine = owner;
    if (strong || weak) {
      const r = el.getBoundingClientRect();
      if (r.width >= 1 && r.height >= 1) {
        const where = place(r);
        if (where === 0 && onTop(el, r)) {
          const rec = makeRecord(el, tag, r, weak, inShadow);
          out.push(rec);
          mine = { rec, weak, own: 0, sub: 0, where, r };
        } else if (where === -1 || where === 1) {
          mine = { rec: null, weak, own: 0, sub: 0, where, r };
        }
      }
    }
    if (!LEAF.has(tag)) {
      const sr = shadowOf(el);
      walk(el, tag, mine, style.cursor === "pointer", visible, inShadow || !!sr);
    }
    stack.pop();
    if (block) blocks.pop();
    if (mine !== owner) finish(mine, owner);
  }

  function finish(mine, owner) {
    const area = mine.r.width * mine.r.height;
    const wrapper = mine.weak && mine.sub > 0 && (mine.own === 0 || area > 0.5 * topW * topH);
    if (wrapper) { if (mine.rec) mine.rec.drop = true; return; }
    if (owner) owner.sub += 1;
    if (mine.where === -1) above += 1;
    else if (mine.where === 1) below += 1;
  }

  const root = document.documentElement;
  if (root) visit(root, null, false, false);
  const items = [];
  for (const it of out) {
    if (it.drop) continue;
    if (it.k === "e") { delete it.own; delete it.sub; delete it.drop; delete it.skipText; }
    else if (it.k === "t") delete it.blk;
    items.push(it);
  }
  const se = document.scrollingElement || root;
  return JSON.stringify({
    token: reg.token, title: document.title, items, frames, above, below,
    scroll: { y: window.scrollY, vh: innerHeight, ph: se ? se.scrollHeight : innerHeight },
  });
}
