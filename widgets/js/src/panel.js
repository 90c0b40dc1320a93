// The panel beside the graph: what the current step did, as Python describes it in `panel`
// (every word comes from Python, in the widget's language; nothing is computed here).
//
// panel = { title, sections: [{kind, heading, lines, ok?, verdict?}], accumulate?, lines }
// First, for an AccumulateGrad step, the update of the leaf's .grad (small matrices as
// tables) and `variable is x ✓` (the two ids on hover); then the sections (the chain rule
// with the step's numbers, the gradients that arrived and their sum, a numerical check, an
// error, prediction feedback); then the raw gradients in and out.

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

function sectionBlock(sec) {
  const kind = String(sec.kind || "info").replace(/[^a-z]/g, "");
  const block = element("div", `mg-section mg-section-${kind}`);
  if (sec.ok === false || sec.verdict === "wrong") block.classList.add("mg-bad");
  if (sec.ok === true || sec.verdict === "right") block.classList.add("mg-good");
  if (sec.heading) block.append(element("h5", "mg-section-heading", sec.heading));
  block.append(element("pre", "mg-section-lines", (sec.lines || []).join("\n")));
  if (kind === "error" || kind === "flag") block.setAttribute("role", "alert");
  return block;
}

export function createPanel() {
  const el = element("section", "mg-panel");
  el.setAttribute("aria-live", "polite");

  function update(panel) {
    panel = panel || {};
    const parts = [];
    if (panel.title) parts.push(element("h4", "mg-panel-title", panel.title));
    if (panel.accumulate) parts.push(accumulateBlock(panel.accumulate));
    for (const sec of panel.sections || []) parts.push(sectionBlock(sec));
    const lines = panel.lines || [];
    if (lines.length) parts.push(element("pre", "mg-panel-lines", lines.join("\n")));
    el.replaceChildren(...parts);
    el.setAttribute("aria-label", panel.title || "");
    el.hidden = parts.length === 0;
  }

  return { el, update };
}
