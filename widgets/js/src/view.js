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

/** A labelled checkbox that sets the boolean trait `name`: [label, input, caption span]. */
function checkbox(model, className, name) {
  const label = document.createElement("label");
  label.className = className;
  const input = document.createElement("input");
  input.type = "checkbox";
  input.addEventListener("change", () => {
    model.set(name, input.checked);
    model.save_changes();
  });
  const caption = document.createElement("span");
  label.append(input, caption);
  return [label, input, caption];
}

/** Zoom out / actual size / zoom in / fit, and the edge-label toggle. */
export function createViewBar(model, graph) {
  const el = document.createElement("div");
  el.className = "mg-viewbar";
  const out = iconButton("−", "", () => graph.zoomBy(1 / 1.25));
  const actual = iconButton("1:1", "", () => graph.reset());
  const zin = iconButton("+", "", () => graph.zoomBy(1.25));
  const fit = iconButton("⤢", "", () => graph.fit());
  const [toggle, box, caption] = checkbox(model, "mg-edge-toggle", "show_edge_labels");
  // edge widths by gradient size
  const [sizing, sizeBox, sizeCaption] = checkbox(model, "mg-edge-toggle mg-size-toggle",
    "scale_edges");
  el.append(out, actual, zin, fit, toggle, sizing);

  function update() {
    const titles = [[out, "view.zoom_out", "Zoom out"], [actual, "view.zoom_reset", "Actual size"],
      [zin, "view.zoom_in", "Zoom in"], [fit, "view.zoom_fit", "Fit the drawing"]];
    for (const [b, key, fallback] of titles) {
      b.title = text(model, key, fallback);
      // a name holds the words the button shows (1:1), symbols aside
      b.setAttribute("aria-label", /\w/.test(b.textContent) ? `${b.textContent} ${b.title}` : b.title);
    }
    caption.textContent = text(model, "view.edge_labels", "Gradients on edges");
    box.checked = Boolean(model.get("show_edge_labels"));
    // a snapshot keeps only the zoom: it looks at one step and changes nothing
    toggle.hidden = model.get("kind") !== "stepper" || Boolean(model.get("frozen"));
    sizeCaption.textContent = text(model, "view.edge_sizes", "Edge width = gradient size");
    sizeBox.checked = Boolean(model.get("scale_edges"));
    sizing.hidden = model.get("kind") !== "stepper" || Boolean(model.get("frozen"));
  }
  return { el, update };
}

/** The legend: what each shape, line and colour means. Its rows come from Python
 * (`legend`: [swatch classes, key in `strings`], from minigrad_widgets.style), and each
 * swatch is drawn by the same generated CSS as the nodes and edges it stands for. */
export function createLegend(model) {
  const el = document.createElement("details");
  el.className = "mg-legend";
  const summary = document.createElement("summary");
  const list = document.createElement("ul");
  el.append(summary, list);

  function update() {
    summary.textContent = text(model, "view.legend", "Legend");
    const rows = model.get("legend") || [];
    list.replaceChildren(...rows.map(([swatches, key]) => {
      const li = document.createElement("li");
      const swatch = document.createElement("span");
      const [first, ...rest] = String(swatches).split(/\s+/);
      swatch.className = ["mg-swatch", `mg-swatch-${first}`, ...rest].join(" ");
      swatch.dataset.swatch = first;
      swatch.setAttribute("aria-hidden", "true");
      const words = document.createElement("span");
      words.textContent = text(model, key, key);
      li.append(swatch, words);
      return li;
    }));
  }
  return { el, update };
}
