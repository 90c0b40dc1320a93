// The parts around the drawing: zoom buttons, the toggle for gradients on edges, and the
// colour legend. Every visible string comes from Python (`strings`, in the widget's language).

function text(model, key, fallback) {
  return (model.get("strings") || {})[key] || fallback;
}

function iconButton(label, title, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "mg-button mg-zoom";
  b.textContent = label;
  b.title = title;
  b.setAttribute("aria-label", title);
  b.addEventListener("click", onClick);
  return b;
}

/** Zoom out / actual size / zoom in / fit, and the edge-label toggle. */
export function createViewBar(model, graph) {
  const el = document.createElement("div");
  el.className = "mg-viewbar";
  const out = iconButton("−", "", () => graph.zoomBy(1 / 1.25));
  const actual = iconButton("1:1", "", () => graph.reset());
  const zin = iconButton("+", "", () => graph.zoomBy(1.25));
  const fit = iconButton("↔", "", () => graph.fit());
  const toggle = document.createElement("label");
  toggle.className = "mg-edge-toggle";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.addEventListener("change", () => {
    model.set("show_edge_labels", box.checked);
    model.save_changes();
  });
  const caption = document.createElement("span");
  toggle.append(box, caption);
  el.append(out, actual, zin, fit, toggle);

  function update() {
    const titles = [[out, "view.zoom_out", "Zoom out"], [actual, "view.zoom_reset", "Actual size"],
      [zin, "view.zoom_in", "Zoom in"], [fit, "view.zoom_fit", "Fit the width"]];
    for (const [b, key, fallback] of titles) {
      b.title = text(model, key, fallback);
      b.setAttribute("aria-label", b.title);
    }
    caption.textContent = text(model, "view.edge_labels", "Gradients on edges");
    box.checked = Boolean(model.get("show_edge_labels"));
    toggle.hidden = model.get("kind") !== "stepper";
    el.hidden = Boolean(model.get("frozen")); // a snapshot has no buttons (drag and ctrl+wheel still zoom)
  }
  return { el, update };
}

const LEGEND = [
  ["output", "view.legend.output"], ["backward", "view.legend.backward"],
  ["leaf", "view.legend.leaf"], ["saved", "view.legend.saved"], ["none", "view.legend.none"],
];
const STEP_LEGEND = [
  ["pending", "view.legend.pending"], ["current", "view.legend.current"],
  ["done", "view.legend.done"], ["error", "view.legend.error"],
  ["flagged", "view.legend.flagged"], ["gradient", "view.legend.gradient"],
];

// the states each kind of widget draws on top of the node kinds (BuildReplay: "build",
// MemoryView: "memory"; their styles are in views.css)
const KIND_LEGEND = {
  stepper: STEP_LEGEND,
  build: [["current", "view.legend.created"]],
  memory: [["held", "view.legend.held"], ["freed", "view.legend.freed"]],
};

/** The colour legend: what each fill and each state means. */
export function createLegend(model) {
  const el = document.createElement("details");
  el.className = "mg-legend";
  const summary = document.createElement("summary");
  const list = document.createElement("ul");
  el.append(summary, list);

  function update() {
    summary.textContent = text(model, "view.legend", "Legend");
    const rows = LEGEND.concat(KIND_LEGEND[model.get("kind")] || []);
    list.replaceChildren(...rows.map(([kind, key]) => {
      const li = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = `mg-swatch mg-swatch-${kind}`;
      li.append(swatch, text(model, key, kind));
      return li;
    }));
  }
  return { el, update };
}
