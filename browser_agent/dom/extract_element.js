  // ---- extract_element.js: what one element says (name, states, attributes, options, icon hint) ----
  const KEEP = ["id", "name", "type", "placeholder", "aria-label", "title", "href", "data-testid", "alt", "role",
    "for", "aria-haspopup", "class"];
  const BUTTON_TYPES = new Set(["button", "submit", "reset", "image"]);

  function makeRecord(el, tag, r, weak, inShadow, src = el) {
    const rec = {
      kind: "element", element_id: reg.idOf(el), tag, role: src.getAttribute("role") || drawnRole(src), name: nameOf(src, tag),
      text: "", attributes: attributesOf(src, tag), states: statesOf(src, tag),
      rect: { x: r.left + offX, y: r.top + offY, width: r.width, height: r.height },
      ancestors: ancestorsOf(el), sibling_index: siblingIndex(el), in_shadow: inShadow, weak,
      own: 0, sub: 0, drop: false, chain: stack.slice(-CHAIN),
    };
    if (tag === "select") [rec.options, rec.options_more] = optionsOf(src);
    if (tag === "textarea" || tag === "select") rec.skipText = true;
    return rec;
  }

  // A widget standing for a hidden native select is indexed as that select: its label, value and options.
  function selectRecord(widget, select, r, inShadow) {
    const rec = makeRecord(widget, "select", r, false, inShadow, select);
    rec.select_id = reg.idOf(select);
    if (!rec.name) {
      const chosen = select.selectedOptions && select.selectedOptions[0];
      rec.name = widgetLabel(widget, chosen ? clean(chosen.textContent, NAME_CAP) : "");
    }
    return rec;
  }

  // The label a widget library moved onto its own parts (tom-select points the <label> at its input).
  function widgetLabel(widget, value) {
    const parts = [widget, ...widget.querySelectorAll("input, [role=combobox], [role=listbox]")].slice(0, 6);
    for (const part of parts) {
      const label = clean(part.getAttribute("aria-label") || "", NAME_CAP) || labelText(part);
      if (label && label !== value) return label;
    }
    return "";
  }

  // Text of a label without what the controls inside it hold (a select's options, a textarea's text).
  function textOf(node) {
    if (!node.querySelector || !node.querySelector("select, textarea")) return node.textContent;
    let s = "";
    for (const child of node.childNodes) {
      if (child.nodeType === 3) s += child.nodeValue;
      else if (child.nodeType === 1 && child.localName !== "select" && child.localName !== "textarea") s += " " + textOf(child) + " ";
    }
    return s;
  }

  function labelText(el) {
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const root = rootOf(el);
      const parts = by.split(/\s+/).map((id) => {
        const t = root.getElementById ? root.getElementById(id) : document.getElementById(id);
        return t ? textOf(t) : "";
      });
      const s = clean(parts.join(" "), NAME_CAP);
      if (s) return s;
    }
    if (el.labels && el.labels.length) {
      const s = clean(Array.from(el.labels, textOf).join(" "), NAME_CAP);
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
    if (tag === "select") return ""; // a select is named by its label only, never by its options
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

  // A knob the keyboard reaches, drawn as a slider's by its class (jQuery UI's ui-slider-handle, a knob
  // in a "range-slider" track) but saying no role: read as the slider it is.
  function drawnRole(el) {
    if (el.tabIndex < 0 || el.children.length > 0 || typeof el.className !== "string") return null;
    const own = el.className.toLowerCase();
    const track = el.parentElement && typeof el.parentElement.className === "string"
      ? el.parentElement.className.toLowerCase() : "";
    return /slider/.test(own) || (/slider/.test(track) && /handle|knob|thumb/.test(own)) ? "slider" : null;
  }

  function statesOf(el, tag) {
    const st = [];
    const role = (el.getAttribute("role") || "").trim().split(" ")[0];
    if (tag !== "input" && ["slider", "spinbutton", "meter", "progressbar"].includes(role)) {
      const v = el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow");
      if (v !== null && v.trim()) st.push('value="' + cleanValue(v, NAME_CAP) + '"');
    }
    const t = el.type;
    if ((t === "checkbox" || t === "radio") && tag === "input") { if (el.checked) st.push("checked"); }
    for (const key of ["aria-checked", "aria-selected", "aria-expanded", "aria-pressed"]) {
      const v = el.getAttribute(key);
      if (v !== null) st.push(key.slice(5) + "=" + v);
    }
    uiStates(el, tag, st);
    const current = el.getAttribute("aria-current"); // the page, step or date a link in a set stands for
    if (current !== null && current !== "false") st.push("current");
    if (tag === "summary" && el.parentElement && el.parentElement.localName === "details") {
      st.push("expanded=" + el.parentElement.open);
    }
    if (el.disabled || el.getAttribute("aria-disabled") === "true") st.push("disabled");
    if (el.required) st.push("required");
    if (el.readOnly && (tag === "input" || tag === "textarea")) st.push("readonly");
    if (tag === "select") {
      const sel = el.selectedOptions && el.selectedOptions[0];
      if (sel) st.push('value="' + cleanValue(sel.textContent, NAME_CAP) + '"');
    } else if ((tag === "input" && !BUTTON_TYPES.has(t) && t !== "checkbox" && t !== "radio") || tag === "textarea") {
      if (el.value) st.push(t === "password" ? "filled" : 'value="' + cleanValue(el.value, NAME_CAP) + '"');
    }
    return st;
  }

  // jQuery UI's tabs and accordions say their state in classes (older versions only there): the tab's
  // <li> (and its link) ui-tabs-active, an accordion header ui-accordion-header-active.
  function uiStates(el, tag, st) {
    const cls = el.getAttribute("class") || "";
    if (cls.includes("ui-accordion-header")) {
      if (!el.hasAttribute("aria-expanded")) {
        st.push("expanded=" + /(^|\s)(ui-accordion-header-active|ui-state-active)(\s|$)/.test(cls));
      }
      return;
    }
    if (tag !== "li" && tag !== "a") return;
    const li = tag === "li" ? el : el.parentElement;
    if (!li || li.localName !== "li" || el.hasAttribute("aria-selected") || li.hasAttribute("aria-selected")) return;
    if (/(^|\s)ui-tabs-(active|selected)(\s|$)/.test(li.getAttribute("class") || "")) st.push("selected=true");
  }

  function attributesOf(el, tag) {
    const a = {};
    for (const key of KEEP) {
      const v = el.getAttribute(key);
      if (v !== null && v !== "") a[key] = v.length > ATTRIBUTE_CAP && !UNCUT ? v.slice(0, ATTRIBUTE_CAP) : v;
    }
    if ((tag === "button" || (tag === "input" && BUTTON_TYPES.has(el.type))) && el.value) a.value = clean(el.value, NAME_CAP);
    // A type the browser does not know (type="input") makes a text field: say what the browser made.
    if (tag === "input" && a.type && a.type.toLowerCase() !== el.type) a.type = el.type;
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
    const shown = opts.slice(0, 8).map((op) => (op.selected ? "✓" : "") + clean(op.textContent, OPTION_CAP));
    return [shown, Math.max(0, opts.length - 8)];
  }

  // ---- icon hints: the words a nameless control's markup uses for its icon ----
  // Words in class names that say how a thing looks or is laid out, not what it does.
  const ICON_STOP = new Set(("btn button buttons icon icons ico glyph glyphicon svg img image pic link links " +
    "item items nav el elem element component widget control ctrl wrapper wrap inner outer container content " +
    "box holder block inline flex grid row col cell relative absolute fixed sticky static float pull clearfix " +
    "hidden hide show visible invisible active inactive selected current disabled enabled primary secondary " +
    "default basic plain small large big tiny lg sm md xs xl xxl light dark white black gray grey transparent " +
    "rounded round circle circular square shadow border bordered borderless outline outlined filled solid regular " +
    "focus hover pressed chromeless ghost text label bg color cursor pointer clickable full width height center " +
    "middle increase hit target trigger handle action actions global common base main new js is has ui fa fas far " +
    "fab fal fad bi mdi ion ti la las lar lab feather octicon material symbols sharp mat only visually screen " +
    "reader").split(" "));
  // Attribute text and file names are words people wrote: only the kind of element is dropped from them.
  const ICON_STOP_LOOSE = new Set(["btn", "button", "icon", "ico", "svg", "img", "image"]);
  const SHORT_OK = new Set(["up", "go", "ok", "fb", "tv"]);
  const ICON_PREFIX = /^(?:ui-)?(?:fa|fas|far|fab|fal|fad|bi|glyphicon|icon|icons|ico|mdi|ion|ti|la|feather|octicon|ri|bx|bxs|uil|gg|lni)-(.+)$/;
  const ICON_ATTR = /^data-(?:.*-)?(?:icon|tooltip|title|label|testid|test-id|test|qa|cy|action)$/;
  const ICON_CARRIERS = "i, svg, img, span, use, [class*=icon], [data-icon]";
  const ICON_SELF = new Set(["i", "svg", "img"]);

  // Lower-case words from names such as "fa-arrow-left", "postSend", "bookmark_border" joined by "-", or "".
  // Class names with utility syntax ("w@md", "Trsdu(.42s)") are skipped whole, and any part with digits
  // (generated names, "mt-3"); `loose` values (attribute text, file names) only lose their punctuation.
  function iconWords(values, loose = false) {
    const words = [];
    const stop = loose ? ICON_STOP_LOOSE : ICON_STOP;
    for (const raw of values) {
      if (!raw || (!loose && /[@:()[\]./\\=#%{}]/.test(raw))) continue;
      const value = loose ? raw.replace(/[^\p{L}\d]+/gu, " ") : raw;
      for (const part of value.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[\s_-]+/)) {
        if (!/^\p{L}+$/u.test(part) || stop.has(part) || (part.length < 3 && !SHORT_OK.has(part))) continue;
        if (!words.includes(part)) words.push(part);
      }
    }
    return words.slice(0, 3).join("-");
  }

  function classesOf(el) {
    const c = el.getAttribute("class");
    return c ? c.trim().split(/\s+/) : [];
  }

  // Sources, first that yields words: attributes naming the icon (data-icon, data-tooltip, data-testid...),
  // an <svg><use href="#icon-x">, icon-library classes (fa-x, bi-x, icon-x) on it or inside it, its id,
  // the classes of the icon inside it (<i>, <svg>, <img>), its own classes, the classes of anything else
  // inside it, an image's file name.
  function iconHint(el, tag) {
    if (tag === "select" || tag === "textarea" || (tag === "input" && !BUTTON_TYPES.has(el.type))) return "";
    const inner = Array.from(el.querySelectorAll(ICON_CARRIERS)).slice(0, 6);
    const named = Array.from(el.attributes, (a) => (ICON_ATTR.test(a.name) ? a.value : ""));
    for (const n of inner) if (n.hasAttribute("data-icon")) named.push(n.getAttribute("data-icon"));
    const use = inner.find((n) => n.localName === "use");
    const ref = use ? use.getAttribute("href") || use.getAttribute("xlink:href") || "" : "";
    const prefixed = [el, ...inner].flatMap((n) => classesOf(n).map((c) => ((ICON_PREFIX.exec(c) || [])[1] || "").replace(/\d+$/, "")));
    const icons = inner.filter((n) => ICON_SELF.has(n.localName));
    const img = icons.find((n) => n.localName === "img");
    const file = img ? (img.getAttribute("src") || "").split(/[?#]/)[0].split("/").pop().replace(/\.\w+$/, "") : "";
    const sources = [[named, true], [[ref.split("#").pop()], false], [prefixed, false], [[el.id], false],
      [icons.flatMap(classesOf), false], [classesOf(el), false], [inner.flatMap(classesOf), false], [[file], true]];
    for (const [values, loose] of sources) {
      const words = iconWords(values, loose);
      if (words) return words;
    }
    return "";
  }

  // Icon fonts that draw a word as a picture (Material Icons/Symbols): the word names the icon, it is not
  // text. Only a text starting in lower case can begin with one, so only those are looked into.
  function splitLigature(rec, el) {
    const glyph = el.querySelector(".material-icons, [class*=material-icons-], [class*=material-symbols]");
    if (!glyph) return;
    const word = clean(glyph.textContent, NAME_CAP);
    if (!word || !rec.text.startsWith(word)) return;
    rec.icon = iconWords([word]);
    rec.text = rec.text.slice(word.length).trim();
  }
