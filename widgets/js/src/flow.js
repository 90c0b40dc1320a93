// GradientFlow's chart: two small SVG line charts (gradient norm, update/weight ratio) per
// parameter and step, on a log scale, drawn from Python's `flow` trait and redrawn when it
// changes (each flow.record()); `flow.at` says which steps the values are of (Python sends
// at most a few hundred per line). Nothing is computed here but the scale; every word comes
// from Python (`strings`, in the widget's language).

const SVG_NS = "http://www.w3.org/2000/svg";
const WIDTH = 520;
const HEIGHT = 170;
const PAD = { left: 52, right: 12, top: 10, bottom: 26 };
// eight hues told apart on white and on JupyterLab's dark background, plus a dash pattern
// per line so that they also differ without colour
const COLOURS = ["#1c7ed6", "#e8590c", "#2f9e44", "#c2255c", "#7048e8", "#0c8599", "#a07000", "#868e96"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

const text = (model, key, fallback) => (model.get("strings") || {})[key] || fallback;

/** The decades [lo, hi] (powers of ten) that hold every positive value of `series`. */
export function decades(series) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of series) {
    for (const v of values) {
      if (v > 0 && Number.isFinite(v)) {
        lo = Math.min(lo, Math.floor(Math.log10(v)));
        hi = Math.max(hi, Math.ceil(Math.log10(v)));
      }
    }
  }
  if (lo === Infinity) return null;
  if (hi === lo) hi = lo + 1;
  return [lo, hi];
}

function chart(title, series, names, steps, stepWord, at) {
  const figure = document.createElement("figure");
  figure.className = "mg-flow-chart";
  const caption = document.createElement("figcaption");
  caption.textContent = title;
  const plot = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img" });
  plot.setAttribute("aria-label", title);
  figure.append(caption, plot);
  const range = decades(series);
  if (!range || steps < 1) return figure;
  const [lo, hi] = range;
  const w = WIDTH - PAD.left - PAD.right;
  const h = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (steps > 1 ? (i / (steps - 1)) * w : w / 2);
  const y = (v) => PAD.top + h - ((Math.log10(v) - lo) / (hi - lo)) * h;
  const every = Math.max(1, Math.ceil((hi - lo) / 6));
  for (let d = lo; d <= hi; d += every) {
    const yy = y(10 ** d);
    plot.append(svg("line", { class: "mg-flow-grid", x1: PAD.left, x2: PAD.left + w, y1: yy, y2: yy }));
    const label = svg("text", { class: "mg-flow-tick", x: PAD.left - 6, y: yy + 4, "text-anchor": "end" });
    label.textContent = `1e${d}`;
    plot.append(label);
  }
  plot.append(svg("line", { class: "mg-flow-axis", x1: PAD.left, x2: PAD.left + w, y1: PAD.top + h, y2: PAD.top + h }));
  const axis = svg("text", { class: "mg-flow-tick", x: PAD.left + w / 2, y: HEIGHT - 8, "text-anchor": "middle" });
  axis.textContent = stepWord;
  plot.append(axis);
  for (const i of [0, steps - 1]) {
    const label = svg("text", { class: "mg-flow-tick", x: x(i), y: HEIGHT - 8, "text-anchor": "middle" });
    label.textContent = String(i + 1);
    plot.append(label);
  }
  series.forEach((values, k) => {
    // a gap where a value is missing or not positive (log scale)
    let d = "";
    let pen = "M";
    values.forEach((v, i) => {
      if (v > 0 && Number.isFinite(v)) {
        d += `${pen}${x(at ? at[i] : i).toFixed(1)},${y(v).toFixed(1)}`;
        pen = "L";
      } else pen = "M";
    });
    const line = svg("path", {
      class: "mg-flow-line", d, stroke: COLOURS[k % COLOURS.length], fill: "none",
      "stroke-dasharray": DASHES[Math.floor(k / COLOURS.length) % DASHES.length] || DASHES[k % DASHES.length],
    });
    line.dataset.name = names[k];
    const tip = svg("title");
    tip.textContent = names[k];
    line.append(tip);
    plot.append(line);
  });
  return figure;
}

function legend(names, shapes) {
  const list = document.createElement("ul");
  list.className = "mg-flow-legend";
  names.forEach((name, k) => {
    const li = document.createElement("li");
    const key = svg("svg", { width: 26, height: 10, "aria-hidden": "true" });
    key.append(svg("line", {
      x1: 1, x2: 25, y1: 5, y2: 5, stroke: COLOURS[k % COLOURS.length], "stroke-width": 2.5,
      "stroke-dasharray": DASHES[Math.floor(k / COLOURS.length) % DASHES.length] || DASHES[k % DASHES.length],
    }));
    li.append(key, ` ${name} ${shapes[k] || ""}`);
    list.append(li);
  });
  return list;
}

/** Renders a GradientFlow widget into `el`; returns a cleanup function. */
export function renderFlow(model, el) {
  const root = document.createElement("div");
  el.append(root);
  function update() {
    const flow = model.get("flow") || {};
    const names = flow.names || [];
    const steps = flow.steps || 0;
    root.className = "mg-widget mg-kind-flow";
    root.lang = model.get("lang") === "zh" ? "zh-CN" : "en";
    if (!steps) {
      const p = document.createElement("p");
      p.className = "mg-note";
      p.textContent = text(model, "view.flow.empty", "No step recorded yet.");
      root.replaceChildren(p);
      return;
    }
    const word = text(model, "view.flow.step", "step");
    const label = (key, fallback) => text(model, key, fallback).replace("{steps}", String(steps));
    root.replaceChildren(
      chart(label("view.flow.grad", "gradient norm"), flow.grad_norms || [], names, steps, word, flow.at),
      chart(label("view.flow.ratio", "update / weight"), flow.update_ratios || [], names, steps, word, flow.at),
      legend(names, flow.shapes || []),
    );
  }
  const events = "change:flow change:strings change:lang";
  model.on(events, update);
  update();
  return () => {
    model.off(events, update);
    root.remove();
  };
}
