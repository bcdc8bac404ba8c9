// Sliders drawn by a page (not <input type=range>): which knob an element is, and the numbers the page
// shows, for a caller that moves the knob with the keyboard and watches which number follows it.
({
  // The knob of the slider ``el`` is or holds; null when it is no slider. A knob is an element with
  // role=slider, or one the keyboard reaches whose class (or its track's) says slider.
  knob(el) {
    if (el.tagName === "INPUT") return null; // a native range takes its value directly
    const classes = (e) => (e && typeof e.className === "string" ? e.className.toLowerCase() : "");
    const role = (e) => (e.getAttribute("role") || "").trim().split(" ")[0];
    if (role(el) === "slider") return el;
    const sliderish = (e) => /slider/.test(classes(e)) || /slider/.test(classes(e.parentElement));
    if (sliderish(el) && el.tabIndex >= 0 && el.children.length === 0) return el;
    if (!/slider/.test(classes(el))) return null;
    return el.querySelector("[role=slider]") ||
      [...el.querySelectorAll("*")].find((e) => e.tabIndex >= 0 && /handle|knob|thumb/.test(classes(e))) ||
      null;
  },
  // What the knob says of its value, when it says it (ARIA).
  said(knob) {
    const now = knob.getAttribute("aria-valuenow");
    return now !== null && now.trim() !== "" && !Number.isNaN(Number(now)) ? Number(now) : null;
  },
  // Every number the page shows on its own (an element's own text, or a field's value such as "$300",
  // "-8", "18 °C", "40 %"), keyed by the element's place in the document.
  numbers() {
    const NUMBER = /^[^\d\s-]{0,3}\s?([-−+]?\d+(?:\.\d+)?)\s?(%|°\s?[cf]?|[a-z]{1,3})?$/i;
    const found = {};
    const all = document.body.querySelectorAll("*");
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      let said = "";
      if (el.tagName === "INPUT" && el.type !== "range") said = el.value;
      else for (const node of el.childNodes) if (node.nodeType === 3) said += node.nodeValue;
      said = said.replace(/\s+/g, " ").trim();
      const match = said && NUMBER.exec(said);
      if (!match) continue;
      const box = el.getBoundingClientRect();
      if (box.width < 1 || box.height < 1) continue;
      found[i] = Number(match[1].replace("−", "-"));
    }
    return found;
  },
})
