// The graph view: lays out `dot` with Graphviz (WebAssembly, bundled) and restyles nodes and
// edges by id as the step changes. Layout happens only when `dot` changes, so stepping never
// moves anything on screen.

import { Graphviz } from "@hpcc-js/wasm-graphviz";
import { drawEdgePictures, drawNodePictures } from "./pictures.js";
import { labelSpot, nodeBox, overlaps, pathSampler, textWidth } from "./layout.js";

// Above this many nodes we refuse to lay out: Graphviz runs on the page's only thread and a
// huge graph would freeze the notebook. The Python side truncates long before this.
export const MAX_NODES = 1500;

// One Graphviz instance per page, shared by every widget (each widget view imports its own
// copy of this module, so a module-level cache would not be shared).
const CACHE = Symbol.for("minigrad_widgets.graphviz");

function loadGraphviz() {
  if (!globalThis[CACHE]) {
    globalThis[CACHE] = Graphviz.load().catch((error) => {
      delete globalThis[CACHE];
      throw error;
    });
  }
  return globalThis[CACHE];
}

/** Counts the nodes of a DOT source by their `id="n<k>"` attributes. */
export function countNodes(dot) {
  return (dot.match(/\bid\s*=\s*"?n\d+\b/g) || []).length;
}

/** Parses Graphviz's SVG text into an element that can be put in this document. */
function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") throw new Error("Graphviz returned no SVG");
  return document.importNode(svg, true);
}

/** Map from DOT id ("n3", "e0") to its <g> element, for restyling without a search. */
function indexById(svg) {
  const index = new Map();
  for (const g of svg.querySelectorAll("g.node[id], g.edge[id]")) index.set(g.id, g);
  return index;
}

const SVG_NS = "http://www.w3.org/2000/svg";

function svgText(className, x, y, text) {
  const node = document.createElementNS(SVG_NS, "text");
  node.setAttribute("class", className);
  node.setAttribute("x", x.toFixed(1));
  node.setAttribute("y", y.toFixed(1));
  node.setAttribute("text-anchor", "middle");
  node.textContent = text;
  return node;
}

/**
 * Creates the graph area. `update()` redraws after a change of `dot` (async: Graphviz);
 * `restyle()` applies `node_states`/`edge_states`, the gradients on the edges and the notes
 * under the nodes to the drawing already on screen, and scrolls the current node into view.
 * A node or edge in state s gets the class `mg-s` (any state Python names).
 * `onNodeClick(id)`, if given, is called with the DOT id of a node the learner clicks (or
 * picks with Enter or Space when nodes can be chosen: `choosable()`).
 *
 * Zoom: a new drawing opens fitted to the area (both dimensions, never above `scale`) and
 * follows the area's size until the learner zooms; `fit()` fits again.
 */
/** A string of the widget's catalogue (`strings`, in its language), values filled in. */
function say(model, key, fallback, values = {}) {
  const text = (model.get("strings") || {})[key] || fallback;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

export function createGraph(model, { onNodeClick, choosable = () => false } = {}) {
  const el = document.createElement("div");
  el.className = "mg-graph";
  if (onNodeClick) {
    el.addEventListener("click", (event) => {
      const node = event.target.closest && event.target.closest("g.node[id]");
      if (node && el.contains(node)) onNodeClick(node.id);
    });
    el.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const node = event.target.closest && event.target.closest("g.node[id]");
      if (!node || !el.contains(node)) return;
      event.preventDefault();
      onNodeClick(node.id);
    });
  }
  let index = new Map();
  let svg = null;
  let drawn = null; // the dot text currently on screen
  let generation = 0; // discards a layout that finished after a newer one started
  let zoom = Number(model.get("scale")) || 1;
  let natural = null; // [width, height] of the drawing in px at zoom 1
  let fitting = true; // the zoom follows the area's size (until the learner zooms)
  const overlay = { labels: null };
  const strings = () => model.get("strings") || {};

  function message(text, kind = "info") {
    const p = document.createElement("p");
    p.className = `mg-message mg-message-${kind}`;
    p.textContent = text;
    el.replaceChildren(p);
    index = new Map();
    svg = null;
  }

  function applyZoom() {
    if (!svg || !natural) return;
    svg.style.width = `${Math.round(natural[0] * zoom)}px`;
    svg.style.height = `${Math.round(natural[1] * zoom)}px`;
    el.dataset.zoom = zoom.toFixed(3);
  }

  function setZoom(value, keepCenter = true) {
    const next = Math.min(4, Math.max(0.05, value));
    const cx = el.scrollLeft + el.clientWidth / 2;
    const cy = el.scrollTop + el.clientHeight / 2;
    const ratio = next / zoom;
    zoom = next;
    applyZoom();
    if (keepCenter) {
      el.scrollLeft = cx * ratio - el.clientWidth / 2;
      el.scrollTop = cy * ratio - el.clientHeight / 2;
    }
  }

  /** The room for the drawing: the area's width, and the height it may grow to (its
   * max-height), less the padding kept for labels. Null while the area has no size. */
  function room() {
    if (!el.isConnected || !el.clientWidth) return null;
    const css = getComputedStyle(el);
    const px = (v) => parseFloat(v) || 0;
    const width = el.clientWidth - px(css.paddingLeft) - px(css.paddingRight);
    const limit = px(css.maxHeight) || window.innerHeight * 0.7;
    const height = limit - px(css.paddingTop) - px(css.paddingBottom);
    return width > 0 && height > 0 ? [width, height] : null;
  }

  /** Fits the whole drawing in the area, both ways; never larger than `scale`. */
  function fit() {
    fitting = true;
    const space = room();
    if (!natural || !space) return;
    const scale = Number(model.get("scale")) || 1;
    setZoom(Math.min(scale, (space[0] - 2) / natural[0], (space[1] - 2) / natural[1]), false);
    el.scrollLeft = el.scrollTop = 0;
  }

  const resize = typeof ResizeObserver === "function"
    ? new ResizeObserver(() => { if (fitting) fit(); }) : null;
  resize?.observe(el);

  function setState(g, state) {
    const old = g.dataset.mgState;
    if (old === state) return;
    if (old) g.classList.remove(`mg-${old}`);
    if (state) g.classList.add(`mg-${state}`);
    g.dataset.mgState = state || "";
  }

  /** Accessible names: each node says what it is, what it shows and its state. */
  function label(g, notes) {
    const kind = [...g.classList].find((c) => KIND_KEYS[c]);
    const text = [...g.querySelectorAll(":scope > text, a > text")].map((t) => t.textContent)
      .concat(notes[g.id] ? [notes[g.id]] : []).join(" ");
    const words = strings();
    let name = (words["view.node_label"] || "{text}; {kind}")
      .replace("{text}", text || kind || "").replace("{kind}", words[KIND_KEYS[kind]] || "");
    const state = g.dataset.mgState;
    if (state && words[`view.legend.${state}`]) {
      name = (words["view.node_state"] || "{label}; {state}").replace("{label}", name)
        .replace("{state}", words[`view.legend.${state}`]);
    }
    g.setAttribute("aria-label", name);
    const active = choosable();
    g.setAttribute("role", active ? "button" : "img");
    if (active) g.setAttribute("tabindex", "0");
    else g.removeAttribute("tabindex");
  }

  function drawOverlay() {
    if (!svg) return;
    overlay.labels?.remove();
    const layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "mg-overlay");
    layer.setAttribute("aria-hidden", "true");
    svg.querySelector("g.graph")?.append(layer);
    const placed = [];
    const boxes = new Map();
    for (const g of index.values()) {
      if (!g.classList.contains("node")) continue;
      const box = nodeBox(g);
      if (box) {
        boxes.set(g.id, box);
        placed.push(box);
      }
    }
    drawNodePictures(layer, index, model, placed);
    const notes = model.get("node_notes") || {};
    for (const [id, text] of Object.entries(notes)) {
      const box = boxes.get(id);
      if (!box) continue;
      // just above the leaf (its gradients arrive from below): centred on it, else flush
      // with its left or right side, else a line higher; clear of what is already placed
      const w = textWidth(text);
      const starts = [box.x + box.w / 2 - w / 2, box.x, box.x + box.w - w]
        .map((x) => Math.max(x, 2)); // not off the left edge
      let spot = null;
      for (let dy = 0; dy <= 45 && !spot; dy += 15) {
        for (const x of starts) {
          const here = { x: x - 3, y: box.y - 17 - dy, w: w + 6, h: 15 };
          if (!placed.some((other) => overlaps(here, other))) {
            spot = here;
            break;
          }
        }
      }
      spot ||= { x: starts[0] - 3, y: box.y - 17, w: w + 6, h: 15 };
      const center = spot.x + 3 + w / 2;
      const note = svgText("mg-node-note", center, spot.y + 12, text);
      note.dataset.node = id;
      layer.append(note);
      placed.push(spot);
    }
    const labels = model.get("show_edge_labels") ? model.get("edge_labels") || {} : {};
    const drawnLabels = new Map(); // edge id -> its <text>, for the pictures beside them
    const paths = new Map(); // edge id -> a point sampler of its path
    const lines = []; // small boxes along every edge: a label should not sit on a line
    for (const [id, g] of index) {
      if (!g.classList.contains("edge")) continue;
      const at = pathSampler(g.querySelector("path")?.getAttribute("d"));
      if (!at) continue;
      paths.set(id, at);
      if (!Object.keys(labels).length) continue;
      for (let k = 1; k < 10; k++) {
        const p = at(k / 10);
        lines.push({ x: p.x - 2, y: p.y - 2, w: 4, h: 4, edge: id });
      }
    }
    for (const [id, text] of Object.entries(labels)) {
      const at = paths.get(id);
      if (!at) continue;
      const others = placed.concat(lines.filter((box) => box.edge !== id));
      const spot = labelSpot(at, textWidth(text), others);
      if (!spot) continue;
      placed.push(spot.box);
      const label = svgText("mg-edge-label", spot.x, spot.y, text);
      label.dataset.edge = id;
      label.setAttribute("text-anchor", spot.anchor);
      layer.append(label);
      drawnLabels.set(id, label);
    }
    drawEdgePictures(layer, model, drawnLabels, placed);
    overlay.labels = layer;
    for (const g of index.values()) if (g.classList.contains("node")) label(g, notes);
  }

  /** Scrolls the graph area (not the page) so that the current node is in view. */
  function reveal() {
    const current = svg?.querySelector("g.node.mg-current, g.node.mg-error");
    if (!current || !el.isConnected) return;
    const box = current.getBoundingClientRect();
    const area = el.getBoundingClientRect();
    if (!area.width) return;
    const margin = 40;
    if (box.left < area.left + margin || box.right > area.right - margin) {
      el.scrollLeft += box.left + box.width / 2 - (area.left + area.width / 2);
    }
    if (box.top < area.top + margin || box.bottom > area.bottom - margin) {
      el.scrollTop += box.top + box.height / 2 - (area.top + area.height / 2);
    }
  }

  /** With `scale_edges` on, each edge as wide as its gradient is large (`edge_sizes`: the
   * norms; an edge gets its share of the largest): 1 px to 7 px; off, the widths of the edge
   * states. A norm of null (NaN or inf) counts as the largest. */
  function sizeEdges() {
    const on = Boolean(model.get("scale_edges"));
    const norms = model.get("edge_sizes") || {};
    const finite = Object.values(norms).filter((n) => typeof n === "number" && Number.isFinite(n));
    const top = Math.max(0, ...finite);
    const sizes = {};
    for (const [id, n] of Object.entries(norms)) {
      sizes[id] = typeof n !== "number" || !Number.isFinite(n) ? 1 : top > 0 ? n / top : 0;
    }
    for (const [id, g] of index) {
      if (!g.classList.contains("edge")) continue;
      const path = g.querySelector("path");
      if (!path) continue;
      const size = sizes[id];
      if (on && typeof size === "number") {
        path.style.strokeWidth = `${(1 + 6 * Math.max(0, Math.min(1, size))).toFixed(2)}px`;
        g.classList.add("mg-sized");
      } else {
        path.style.strokeWidth = "";
        g.classList.remove("mg-sized");
      }
    }
  }

  function restyle() {
    const nodes = model.get("node_states") || {};
    const edges = model.get("edge_states") || {};
    for (const [id, g] of index) {
      setState(g, (g.classList.contains("node") ? nodes : edges)[id]);
    }
    sizeEdges();
    drawOverlay();
    reveal();
  }

  async function update() {
    const dot = model.get("dot") || "";
    if (dot === drawn) return;
    drawn = dot;
    const mine = ++generation;
    if (!dot.trim()) return message(say(model, "view.nothing", "Nothing to draw yet."));
    const count = countNodes(dot);
    if (count > MAX_NODES) {
      return message(say(model, "view.too_large", "This graph has {count} nodes; drawing stops " +
        "at {max}.", { count, max: MAX_NODES }), "warning");
    }
    if (!index.size) message(say(model, "view.laying_out", "Laying out the graph…"));
    const graphviz = await loadGraphviz();
    if (mine !== generation) return;
    let drawing;
    try {
      drawing = parseSvg(graphviz.dot(dot));
    } catch (error) {
      console.error("[minigrad_widgets] could not lay out the graph:", error);
      return message(say(model, "view.layout_failed", "Could not lay out the graph: {error}",
        { error: error.message || error }), "error");
    }
    // Graphviz sizes the drawing in points; at zoom 1 a 12 pt label is 16 px.
    natural = [parseFloat(drawing.getAttribute("width")) * (4 / 3),
      parseFloat(drawing.getAttribute("height")) * (4 / 3)];
    drawing.removeAttribute("width");
    drawing.removeAttribute("height");
    drawing.setAttribute("role", "group");
    drawing.setAttribute("aria-label", say(model, "view.graph_label", "autograd graph, {count} nodes",
      { count }));
    for (const title of drawing.querySelectorAll("title")) title.remove(); // ids, not names
    for (const g of drawing.querySelectorAll("g.edge")) g.setAttribute("aria-hidden", "true");
    el.replaceChildren(drawing);
    svg = drawing;
    overlay.labels = null;
    if (fitting) {
      zoom = Number(model.get("scale")) || 1;
      fit();
    }
    applyZoom();
    index = indexById(svg);
    restyle();
  }

  const onScale = () => {
    fitting = false;
    setZoom(Number(model.get("scale")) || 1);
  };
  const zoomBy = (factor) => {
    fitting = false;
    setZoom(zoom * factor);
  };
  const pan = panning(el, (factor) => zoomBy(factor));
  const cleanup = () => {
    pan();
    resize?.disconnect();
  };
  return { el, update, restyle, drawOverlay, sizeEdges, fit, zoomBy, onScale, reset: onScale,
    cleanup };
}

// node class -> the legend's words for that kind
const KIND_KEYS = Object.fromEntries(["output", "backward", "leaf", "saved", "none", "chain",
  "more"].map((k) => [`mg-${k}`, `view.legend.${k}`]));

/** Drag to pan; ctrl (or cmd) + wheel to zoom. Returns a cleanup function. */
function panning(el, zoomBy) {
  let start = null;
  const down = (e) => {
    if (e.button !== 0 || e.target.closest("a, button, input")) return;
    start = [e.clientX, e.clientY, el.scrollLeft, el.scrollTop];
    el.classList.add("mg-panning");
  };
  let dragged = false;
  const move = (e) => {
    if (!start) return;
    dragged ||= Math.abs(e.clientX - start[0]) + Math.abs(e.clientY - start[1]) > 4;
    el.scrollLeft = start[2] - (e.clientX - start[0]);
    el.scrollTop = start[3] - (e.clientY - start[1]);
  };
  const up = () => {
    start = null;
    el.classList.remove("mg-panning");
  };
  // a drag is not a click on the node it ended on (prediction mode listens for those)
  const click = (e) => {
    if (dragged) e.stopPropagation();
    dragged = false;
  };
  el.addEventListener("click", click, true);
  const wheel = (e) => {
    if (!(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15);
  };
  el.addEventListener("pointerdown", down);
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  el.addEventListener("wheel", wheel, { passive: false });
  return () => {
    el.removeEventListener("pointerdown", down);
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    el.removeEventListener("wheel", wheel);
    el.removeEventListener("click", click, true);
  };
}
