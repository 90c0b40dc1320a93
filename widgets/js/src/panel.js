// The panel beside the graph: what the current step did, as Python describes it in `panel`
// (every word comes from Python, in the widget's language; nothing is computed here).
//
// panel = { title, sections: [{kind, heading, lines, ok?, verdict?, pictures?}], accumulate?,
//           lines, pictures?, heat? }: `heat` holds each large tensor's heat map once, and
//           `pictures` ({line, heat}) put them under the lines that mention them.
// First, for an AccumulateGrad step, the update of the leaf's .grad (small matrices as
// tables) and `variable is x ✓` (the two ids on hover); then the sections (the chain rule
// with the step's numbers, the gradients that arrived and their sum, a numerical check, an
// error, prediction feedback); then the raw gradients in and out.
import { indexOf } from "./pictures.js";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function table(rows) {
  const t = element("table", "mg-matrix");
  for (const row of rows) {
    const tr = element("tr");
    for (const cell of row) tr.append(element("td", "", cell));
    t.append(tr);
  }
  return t;
}

function accumulateBlock(acc) {
  const block = element("div", "mg-accumulate");
  const tables = acc.tables;
  if (Array.isArray(tables) && tables.every((x) => Array.isArray(x))) {
    const eq = element("div", "mg-accumulate-grad mg-equation");
    eq.append(element("span", "", `${acc.variable_name}.grad:`), table(tables[0]),
      element("span", "", "+"), table(tables[1]), element("span", "", "="), table(tables[2]));
    eq.setAttribute("aria-label", acc.equation || "");
    block.append(eq);
  } else {
    block.append(element("pre", "mg-accumulate-grad", acc.equation || ""));
  }
  const identity = element("pre", "mg-accumulate-identity", acc.identity || "");
  identity.title = acc.ids || "";
  block.append(identity);
  return block;
}

// A tensor too large to read as numbers, as Python describes it (heat.py): cells already
// coloured, the exact value of each as text. Hovering a cell writes "[i, j] = value" in the
// readout under the grid; the <details> below opens a table of every value.

export function heatMap(heat, words = {}) {
  const fig = element("span", "mg-heat");
  fig.setAttribute("role", "group");
  fig.setAttribute("aria-label", heat.summary || "");
  const rows = heat.rows || 0;
  const cols = heat.cols || 0;
  const w = Math.max(4, Math.min(18, Math.floor(240 / Math.max(cols, 1))));
  const h = Math.max(3, Math.min(18, Math.floor(200 / Math.max(rows, 1))));
  const grid = element("span", "mg-heat-grid");
  grid.style.gridTemplateColumns = `repeat(${cols}, ${w}px)`;
  grid.style.gridAutoRows = `${h}px`;
  const shape = heat.shape || [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const cell = element("span", "mg-heat-cell");
      cell.style.background = heat.colors[r][c];
      cell.dataset.index = indexOf(shape, r, c);
      cell.dataset.value = heat.values[r][c];
      cell.title = `${cell.dataset.index} = ${cell.dataset.value}`;
      grid.append(cell);
    }
  }
  const [lo, hi] = heat.scale || [0, 0];
  const scale = element("span", "mg-heat-scale");
  scale.append(element("span", "", String(Number(lo.toPrecision(3)))),
    element("span", "mg-heat-bar"), element("span", "", String(Number(hi.toPrecision(3)))));
  const hint = words["view.heat_hover"] || "Point at a cell to read its value";
  const readout = element("span", "mg-heat-readout", hint);
  readout.setAttribute("aria-live", "polite");
  grid.addEventListener("mouseover", (event) => {
    const cell = event.target.closest && event.target.closest(".mg-heat-cell");
    if (cell) readout.textContent = `${cell.dataset.index} = ${cell.dataset.value}`;
  });
  grid.addEventListener("mouseleave", () => { readout.textContent = hint; });
  const details = element("details", "mg-heat-table");
  details.append(element("summary", "", words["view.heat_table"] || "Values"));
  details.addEventListener("toggle", () => { // the table is made when first opened
    if (!details.open || details.querySelector("table")) return;
    const t = element("table", "mg-matrix");
    for (let r = 0; r < rows; r++) {
      const tr = element("tr");
      tr.append(element("th", "", indexOf(shape, r, 0).replace(/0\]$/, ":]")));
      for (const v of heat.values[r]) tr.append(element("td", "", v));
      t.append(tr);
    }
    details.append(t);
  }, { once: false });
  fig.append(grid, scale, readout, details);
  return fig;
}

/** Lines of text, each followed by the heat maps of its large tensors. */
function linesWithPictures(className, lines, pictures, heat, words) {
  const box = element("div", `${className} mg-lines-pictures`);
  lines.forEach((text, i) => {
    box.append(element("div", "mg-line", text));
    for (const pic of pictures) {
      if (pic.line === i && heat[pic.heat]) box.append(heatMap(heat[pic.heat], words));
    }
  });
  return box;
}

function linesBlock(className, lines, pictures, heat, words) {
  if (pictures && pictures.length) return linesWithPictures(className, lines, pictures, heat, words);
  return element("pre", className, lines.join("\n"));
}

// The code a step ran (code_view.py): blocks of source lines, each line its number, a mark
// ("grad": its result is a gradient, "ran": it ran in this step), highlighted spans
// ([kind, text], kinds from Python's tokenizer) and notes (the values after it ran).
function codeLine(line) {
  const row = element("div", `mg-code-line mg-code-${line.mark || "idle"}`);
  row.append(element("span", "mg-code-n", line.n === null || line.n === undefined ? "" : String(line.n)));
  const code = element("code", "mg-code-text");
  for (const [kind, text] of line.spans || []) {
    code.append(kind ? element("span", `mg-tok-${String(kind).replace(/[^a-z]/g, "")}`, text)
      : document.createTextNode(text));
  }
  row.append(code);
  for (const note of line.notes || []) row.append(element("div", "mg-code-note", note));
  return row;
}

function codeBlocks(sec) {
  const box = element("div", "mg-code");
  for (const block of sec.blocks || []) {
    const part = element("div", "mg-code-block" + (block.wrap ? " mg-code-wrap" : ""));
    part.append(element("div", "mg-code-title", block.title || ""));
    if ((block.lines || []).length) {
      const lines = element("div", "mg-code-lines");
      lines.setAttribute("role", "group");
      lines.setAttribute("aria-label", block.title || "");
      for (const line of block.lines) lines.append(codeLine(line));
      part.append(lines);
    }
    if (block.message) part.append(element("p", "mg-code-message", block.message));
    box.append(part);
  }
  return box;
}

function sectionBlock(sec, heat, words) {
  const kind = String(sec.kind || "info").replace(/[^a-z]/g, "");
  if (kind === "code" && Array.isArray(sec.blocks)) {
    const block = element("div", "mg-section mg-section-code");
    if (sec.heading) block.append(element("h5", "mg-section-heading", sec.heading));
    block.append(codeBlocks(sec));
    return block;
  }
  const block = element("div", `mg-section mg-section-${kind}`);
  if (sec.ok === false || sec.verdict === "wrong") block.classList.add("mg-bad");
  if (sec.ok === true || sec.verdict === "right") block.classList.add("mg-good");
  if (sec.heading) block.append(element("h5", "mg-section-heading", sec.heading));
  block.append(linesBlock("mg-section-lines", sec.lines || [], sec.pictures, heat, words));
  if (kind === "error" || kind === "flag") block.setAttribute("role", "alert");
  return block;
}

// The Code toggle: Python adds the code section while the `code` trait is on. A page with
// no kernel can only show what was recorded, so there the toggle appears only if the
// record holds code (and then just hides or shows it).
function codeToggle(model) {
  const toggle = element("button", "mg-button mg-code-toggle");
  toggle.type = "button";
  toggle.addEventListener("click", () => {
    model.set("code", !model.get("code"));
    model.save_changes();
  });
  return toggle;
}

export function createPanel(model) {
  const el = element("section", "mg-panel");
  el.setAttribute("aria-live", "polite");
  const toggle = codeToggle(model);

  function update(panel) {
    panel = panel || {};
    const parts = [];
    const words = (model && model.get("strings")) || {};
    const sections = panel.sections || [];
    const hasCode = sections.some((sec) => sec.kind === "code");
    const open = Boolean(model && model.get("code"));
    const stepper = model && model.get("kind") === "stepper";
    if (stepper && (hasCode || (!model.offline && !model.get("frozen")))) {
      toggle.textContent = words["view.code"] || "Code";
      toggle.title = words["view.code_tip"] || "";
      toggle.setAttribute("aria-pressed", String(open));
      parts.push(toggle);
    }
    if (panel.title) parts.push(element("h4", "mg-panel-title", panel.title));
    if (panel.accumulate) parts.push(accumulateBlock(panel.accumulate));
    const heat = panel.heat || [];
    for (const sec of sections) {
      if (sec.kind !== "code" || open) parts.push(sectionBlock(sec, heat, words));
    }
    const lines = panel.lines || [];
    if (lines.length) parts.push(linesBlock("mg-panel-lines", lines, panel.pictures, heat, words));
    el.replaceChildren(...parts);
    el.setAttribute("aria-label", panel.title || "");
    el.hidden = parts.length === 0;
  }

  return { el, update };
}
