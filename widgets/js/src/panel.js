// The panel beside the graph: what the current step did, as Python describes it in `panel`.
// For an AccumulateGrad step it spells out the update of the leaf's .grad and the identity
// check `variable is x`.

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function accumulateBlock(acc) {
  const name = acc.variable_name || "x";
  const same = String(acc.is_same) === "True";
  const block = element("div", "mg-accumulate");
  const grad = element("pre", "mg-accumulate-grad");
  grad.textContent = `${name}.grad: ${acc.grad_before} + ${acc.incoming} = ${acc.grad_after}`;
  const identity = element("pre", "mg-accumulate-identity");
  identity.textContent =
    `variable is ${name}: ${acc.is_same} ` +
    `(id ${acc.variable_id} ${same ? "==" : "!="} id ${acc.tensor_id})`;
  block.append(grad, identity);
  return block;
}

export function createPanel() {
  const el = element("section", "mg-panel");
  el.setAttribute("aria-live", "polite");
  el.setAttribute("aria-label", "current step");

  function update(panel) {
    panel = panel || {};
    const parts = [];
    if (panel.title) parts.push(element("h4", "mg-panel-title", panel.title));
    const lines = panel.lines || [];
    if (lines.length) parts.push(element("pre", "mg-panel-lines", lines.join("\n")));
    if (panel.accumulate) parts.push(accumulateBlock(panel.accumulate));
    el.replaceChildren(...parts);
    el.hidden = parts.length === 0;
  }

  return { el, update };
}
