  // ---- extract_widgets.js: native selects hidden behind a widget, and open modal dialogs ----
  const POPUP_ROLES = new Set(["combobox", "listbox", "button"]);
  const POPUP = "[role=combobox], [role=listbox], [aria-haspopup]";
  // The class of a library's box that stands for a select, when it shows no value to recognise it by
  // (a blank first option): selectric, nice-select, chosen, bootstrap-select.
  const SELECT_CLASS = /(^|\s)(selectric|nice-select|chosen-container|bootstrap-select|custom-select)(\s|$)/;

  // Libraries (select2, tom-select, choices.js, selectric, bootstrap-select) hide the native <select> and
  // draw their own box beside or around it. Map each such box to the select it stands for.
  function findWidgets(selects) {
    const found = new Map();
    for (const el of selects) {
      if (!concealed(el)) continue;
      const widget = widgetOf(el);
      if (widget && !found.has(widget)) found.set(widget, el);
    }
    return found;
  }

  function concealed(select) {
    const r = select.getBoundingClientRect();
    if (r.width < 4 || r.height < 4) return true;
    const s = getComputedStyle(select);
    if (s.visibility !== "visible" || s.opacity === "0") return true;
    // Clipped away by a wrapper of no size (selectric's .selectric-hide-select: overflow hidden, 0 × 0).
    for (let n = select.parentElement, i = 0; n && i < 2; n = n.parentElement, i++) {
      const b = n.getBoundingClientRect();
      if ((b.width < 4 || b.height < 4) && getComputedStyle(n).overflow !== "visible") return true;
    }
    return false;
  }

  function widgetOf(select) {
    const chosen = select.selectedOptions && select.selectedOptions[0];
    const value = chosen ? cutText(chosen.textContent, NAME_CAP) : ""; // only compared, never shown
    // A popup control wrapping the select (choices.js puts it two levels inside).
    let n = select.parentElement;
    for (let i = 0; n && i < 3 && n !== document.body; i++, n = n.parentElement) {
      if (n.localName === "label" || n.localName === "form" || n.querySelectorAll("select").length > 1) break;
      if (popupControl(n) && drawn(n)) return n;
    }
    // A box right after the select, or after a wrapper that holds only the select: the same container.
    let a = select;
    for (let i = 0; i < 2 && a.parentElement && a.parentElement.childElementCount === 1; i++) a = a.parentElement;
    for (let s = a.nextElementSibling, i = 0; s && i < 3; s = s.nextElementSibling, i++) {
      if (s.localName === "select" || s.localName === "label" || s.querySelector("select")) break;
      if (drawn(s) && (popupControl(s) || s.querySelector(POPUP) || (value && s.textContent.includes(value)) ||
        SELECT_CLASS.test(s.getAttribute("class") || ""))) return s;
    }
    return linkedWidget(select);
  }

  // A combobox elsewhere whose own markup names the select's id ("country-ts-control", "select2-country-container").
  function linkedWidget(select) {
    const id = select.id;
    if (!id) return null;
    const named = (v) => !!v && (" " + v.replace(/[-_]/g, " ") + " ").includes(" " + id.replace(/[-_]/g, " ") + " ");
    for (const box of document.querySelectorAll("[role=combobox]")) {
      if (box === select || !drawn(box)) continue;
      if (named(box.id) || named(box.getAttribute("aria-controls")) || named(box.getAttribute("aria-labelledby"))) return box;
    }
    return null;
  }

  function popupControl(n) {
    const role = n.getAttribute("role");
    return (!!role && POPUP_ROLES.has(role)) || n.hasAttribute("aria-haspopup");
  }

  function drawn(n) {
    const r = n.getBoundingClientRect();
    return r.width >= 4 && r.height >= 4 && getComputedStyle(n).visibility === "visible";
  }

  // Whether el is a part of a widget that stands for a select (its search input, its label target).
  function inWidget(el) {
    if (!widgets.size) return false;
    if (concealedSelects.has(el)) return true;
    for (let n = el, i = 0; n && i < 6; n = n.parentElement, i++) if (widgets.has(n)) return true;
    return false;
  }

  // The open modal, if any: a <dialog> opened with showModal() (the top layer), the last drawn
  // aria-modal element on screen, else a fixed element covering the viewport that holds the focus.
  function findModal() {
    for (const d of document.getElementsByTagName("dialog")) if (d.matches(":modal") && onScreen(d)) return d;
    let found = null;
    for (const d of document.querySelectorAll("[aria-modal=true]")) if (onScreen(d)) found = d;
    if (found) return found;
    for (let n = document.activeElement; n && n !== document.body && n.nodeType === 1; n = n.parentElement) {
      if (getComputedStyle(n).position !== "fixed") continue;
      const r = n.getBoundingClientRect();
      if (r.width >= 0.9 * innerWidth && r.height >= 0.9 * innerHeight) return n;
    }
    return null;
  }

  // Drawn and at least partly inside the viewport (a drawer slid out of view does not count).
  function onScreen(n) {
    const r = n.getBoundingClientRect();
    return drawn(n) && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  }
