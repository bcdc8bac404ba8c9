  // ---- extract_layout.js: scroll panels (what they hide, and where) and data tables (rows and cells) ----
  const SCROLLS = new Set(["auto", "scroll", "overlay"]);
  const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"]);
  const panels = []; // the scroll panels being visited, outermost first
  let tableNow = null; // {id} while inside a data table, null inside a layout table or outside any
  let rowNow = null; // {t, r, col} while inside a row of a data table
  let cellNow = null; // [table, row, column] while inside a cell of a data table
  let tableSeq = 0;
  let rowSeq = 0;

  // Which side of an enclosing panel's box a box lies on, outermost panel first; sets `hidden`. The
  // capture's margin widens panels as it widens the viewport (a whole-page capture sees into them).
  function panelSide(x, y, r) {
    for (const p of panels) {
      let side = "";
      if (y + r.height <= p.y0 - margin) side = "above";
      else if (y >= p.y1 + margin) side = "below";
      else if (x + r.width <= p.x0) side = "left";
      else if (x >= p.x1) side = "right";
      if (side) { hidden.panel = p; hidden.side = side; return side; }
    }
    return "";
  }

  // An element in view whose content scrolls inside it: indexed (with `rec`, or a record of its own) so
  // the model can scroll it, and a box that hides what lies outside it.
  function openPanel(el, tag, style, rec) {
    const ox = style.overflowX;
    if (ox === "visible") return null; // then overflow-y is visible too: one visible axis makes the other auto
    const oy = style.overflowY;
    if (!SCROLLS.has(ox) && !SCROLLS.has(oy)) return null;
    if (tag === "html" || tag === "body" || LEAF.has(tag)) return null;
    const down = SCROLLS.has(oy) && el.scrollHeight - el.clientHeight > 8;
    const side = SCROLLS.has(ox) && el.scrollWidth - el.clientWidth > 8;
    if (!down && !side) return null;
    const r = el.getBoundingClientRect();
    if (!rec) {
      if (r.width < 1 || r.height < 1 || place(r) !== 0 || !onTop(el, r)) return null;
      rec = inCell(makeRecord(el, tag, r, false, false));
      out.push(rec);
    }
    rec.skipText = true;
    rec.text = "";
    const x0 = r.left + offX + el.clientLeft, y0 = r.top + offY + el.clientTop;
    const hides = { above: 0, below: 0, left: 0, right: 0 }; // interactive elements beyond each edge
    const p = { rec, el, x0, y0, x1: x0 + el.clientWidth, y1: y0 + el.clientHeight, hides };
    panels.push(p);
    return p;
  }

  // How much the panel hides on each side: interactive elements, and screens of content.
  function closePanel(p) {
    panels.pop();
    const el = p.el, h = el.clientHeight || 1, w = el.clientWidth || 1;
    const screens = (n) => Math.max(0, Math.round((n * 10)) / 10);
    const n = p.hides;
    p.rec.panel = {
      elements_above: n.above, elements_below: n.below, elements_left: n.left, elements_right: n.right,
      screens_above: screens(el.scrollTop / h), screens_below: screens((el.scrollHeight - el.scrollTop - h) / h),
      screens_left: screens(el.scrollLeft / w), screens_right: screens((el.scrollWidth - el.scrollLeft - w) / w),
    };
  }

  // Entering a table, a row or a cell: returns what to restore on leaving it, or null.
  function enterTable(el, tag, role) {
    if (tag === "table" || role === "table" || role === "grid" || role === "treegrid") {
      const saved = [tableNow, rowNow, cellNow];
      if (dataTable(el, tag, role)) {
        tableNow = { id: ++tableSeq };
        rowNow = null;
        cellNow = null;
      } else tableNow = null; // a layout table: what is inside stays in the cell around it, if any
      return saved;
    }
    if (!tableNow || cellNow) return null;
    if ((tag === "tr" || role === "row") && !rowNow) {
      const saved = [tableNow, rowNow, cellNow];
      rowNow = { t: tableNow.id, r: ++rowSeq, col: 0 };
      return saved;
    }
    if (rowNow && (tag === "td" || tag === "th" || CELL_ROLES.has(role))) {
      const saved = [tableNow, rowNow, cellNow];
      cellNow = [rowNow.t, rowNow.r, rowNow.col++];
      return saved;
    }
    return null;
  }

  function leaveTable(saved) {
    [tableNow, rowNow, cellNow] = saved;
  }

  // Data tables are read row by row; layout tables (role=presentation, tables of tables, one cell per row)
  // stay as text.
  function dataTable(el, tag, role) {
    if (role === "presentation" || role === "none") return false;
    if (tag !== "table") return true;
    if (el.querySelector("table")) return false;
    let wide = 0;
    for (let i = 0; i < el.rows.length && wide < 2; i++) if (el.rows[i].cells.length >= 2) wide++;
    return wide >= 2;
  }

  // Marks an item with the table cell it sits in.
  function inCell(item) {
    if (cellNow) item.cell = cellNow;
    return item;
  }
