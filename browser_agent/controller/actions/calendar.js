// The month calendars shown on the page (a date picker that a read-only field opened), read the way a
// person reads one: the run of day numbers 1, 2, 3 ... in reading order (the greyed days of the months
// before and after fall outside it), the month and year written above it, and the controls beside it
// that go to the month before and after. Returns
// {months: [{month: 1-12, year, cells: [the element of day 1, of day 2, ...]}], prev, next}.
() => {
  const NAMES = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
  const MONTH = "(january|february|march|april|may|june|july|august|september|october|november|december|" +
    "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?";
  const MONTH_YEAR = new RegExp("\\b" + MONTH + ",?\\s*((?:19|20)\\d\\d)\\b", "i");
  const YEAR_MONTH = new RegExp("\\b((?:19|20)\\d\\d)\\s*" + MONTH + "(?![a-z])", "i");
  const CONTROLS = "a, button, [role=button], [onclick], [tabindex]";
  const NEXT = /^(next( month)?|›|»|>|→|⟩|▶|▸|⏵|❯)$|\bnext\b/i;
  const PREV = /^(prev(ious)?( month)?|‹|«|<|←|⟨|◀|◂|⏴|❮)$|\bprev(ious)?\b|\bback\b/i;

  const shown = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) return false;
    const style = getComputedStyle(el);
    return style.visibility !== "hidden" && style.display !== "none" && Number(style.opacity) > 0;
  };
  const text = (el) => (el.textContent || "").replace(/\s+/g, " ").trim();
  // The text of a box with its parts kept apart ("August 2027" then "26", not "August 202726").
  const spaced = (el) => {
    const parts = [];
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) parts.push(walk.currentNode.nodeValue);
    return parts.join(" ").replace(/\s+/g, " ");
  };

  // Day cells: the innermost shown element reading a number from 1 to 31, in document order.
  const cells = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("select, option, script, style, input, textarea")) continue;
    const read = text(el);
    if (!/^\d{1,2}$/.test(read) || Number(read) < 1 || Number(read) > 31) continue;
    if ([...el.children].some((child) => text(child) === read)) continue;
    if (!shown(el)) continue;
    cells.push({ el, day: Number(read) });
  }
  // Runs of 1, 2, 3 ... at least 28 long: one month each.
  const runs = [];
  let run = [];
  for (const cell of cells) {
    if (cell.day === run.length + 1) run.push(cell.el);
    else {
      if (run.length >= 28) runs.push(run);
      run = cell.day === 1 ? [cell.el] : [];
    }
  }
  if (run.length >= 28) runs.push(run);

  const common = (a, b) => {
    for (let up = a; up; up = up.parentElement) if (up.contains(b)) return up;
    return document.body;
  };
  const monthOf = (el) => {
    const said = [el.getAttribute("aria-label") || "", el.getAttribute("title") || "", spaced(el)].join(" ");
    let found = MONTH_YEAR.exec(said);
    if (found) return { month: NAMES.indexOf(found[1].slice(0, 3).toLowerCase()) + 1, year: Number(found[2]) };
    found = YEAR_MONTH.exec(said);
    if (found) return { month: NAMES.indexOf(found[2].slice(0, 3).toLowerCase()) + 1, year: Number(found[1]) };
    return null;
  };
  const months = [];
  let root = null;
  for (const days of runs) {
    // The month is written on the nearest box around the days that names one.
    let box = common(days[0], days[days.length - 1]);
    let month = null;
    for (let level = 0; box && level < 5; level++) {
      month = monthOf(box);
      if (month) break;
      box = box.parentElement;
    }
    if (!month) continue;
    months.push({ month: month.month, year: month.year, cells: days });
    root = root ? common(root, box) : box;
  }
  // The controls to the month before and after: named so (text, label or title), near the calendar.
  let prev = null;
  let next = null;
  for (let box = root, level = 0; box && level < 3 && !(prev && next); level++, box = box.parentElement) {
    for (const el of box.querySelectorAll(CONTROLS)) {
      if (!shown(el)) continue;
      const said = (el.getAttribute("aria-label") || el.getAttribute("title") || text(el)).trim();
      if (said.length > 24) continue;
      if (!next && NEXT.test(said)) next = el;
      else if (!prev && PREV.test(said)) prev = el;
    }
  }
  return { months, prev, next };
}
