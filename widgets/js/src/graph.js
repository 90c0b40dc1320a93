// The graph view: lays out `dot` with Graphviz (WebAssembly, bundled) and restyles nodes and
// edges by id as the step changes. Layout happens only when `dot` changes, so stepping never
// moves anything on screen.

import { Graphviz } from "@hpcc-js/wasm-graphviz";

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

const ALONG = [0.5, 0.3, 0.7, 0.2, 0.8];
const CHAR_WIDTH = 6.6; // px of an 11 px monospace character
const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Where an edge's label goes: near the middle of its path, beside the line, and not on a
 * label already placed (two edges between the same nodes, as in y * y). */
function labelSpot(g, w, placed) {
  const path = g.querySelector("path");
  if (!path || typeof path.getTotalLength !== "function") return null;
  const length = path.getTotalLength();
  let best = null;
  let fewest = Infinity;
  for (const dy of [0, -14, 14, -28, 28]) {
    for (const t of ALONG) {
      const p = path.getPointAtLength(length * t);
      for (const [x, anchor] of [[p.x + 5, "start"], [p.x - 5, "end"]]) {
        // the box of the text and its halo
        const box = { x: (anchor === "start" ? x : x - w) - 3, y: p.y + dy - 7, w: w + 6, h: 15 };
        const spot = { x, y: p.y + dy + 4, anchor, box };
        const hits = placed.filter((other) => overlaps(box, other)).length;
        if (!hits) return spot;
        if (hits < fewest) [best, fewest] = [spot, hits];
      }
    }
  }
  // crowded: slide to the right of whatever is in the way, a little away from the line
  const p = path.getPointAtLength(length / 2);
  const box = { x: p.x + 2, y: p.y - 7, w: w + 6, h: 15 };
  for (let tries = 0; tries < 6 && box.x < p.x + 160; tries++) {
    const hit = placed.filter((other) => overlaps(box, other));
    if (!hit.length) return { x: box.x + 3, y: p.y + 4, anchor: "start", box };
    box.x = Math.max(...hit.map((other) => other.x + other.w)) + 1;
  }
  return best;
}

/**
 * Creates the graph area. `update()` redraws after a change of `dot` (async: Graphviz);
 * `restyle()` applies `node_states`/`edge_states`, the gradients on the edges and the notes
 * under the nodes to the drawing already on screen, and scrolls the current node into view.
 * A node or edge in state s gets the class `mg-s` (any state Python names).
 * `onNodeClick(id)`, if given, is called with the DOT id of a node the learner clicks.
 */
export function createGraph(model, { onNodeClick } = {}) {
  const el = document.createElement("div");
  el.className = "mg-graph";
  if (onNodeClick) {
    el.addEventListener("click", (event) => {
      const node = event.target.closest && event.target.closest("g.node[id]");
      if (node && el.contains(node)) onNodeClick(node.id);
    });
  }
  let index = new Map();
  let svg = null;
  let drawn = null; // the dot text currently on screen
  let generation = 0; // discards a layout that finished after a newer one started
  let zoom = Number(model.get("scale")) || 1;
  let natural = null; // [width, height] of the drawing in px at zoom 1
  const overlay = { labels: null };

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
  }

  function setZoom(value, keepCenter = true) {
    const next = Math.min(4, Math.max(0.1, value));
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

  function fit() {
    if (natural && el.clientWidth) setZoom(Math.min(1, (el.clientWidth - 4) / natural[0]), false);
  }

  function setState(g, state) {
    const old = g.dataset.mgState;
    if (old === state) return;
    if (old) g.classList.remove(`mg-${old}`);
    if (state) g.classList.add(`mg-${state}`);
    g.dataset.mgState = state || "";
  }

  // Notes and labels are placed from the laid-out boxes (getBBox), which are all zero while
  // the output area is not in the page or not shown yet (a widget rendered before its cell's
  // output is attached): then wait until the graph area has a size, and place them then.
  let sizeWatch = null;
  const laidOut = () => svg.isConnected && svg.getBoundingClientRect().width > 0;
  function drawOverlayOnceLaidOut() {
    if (sizeWatch || typeof ResizeObserver === "undefined") return;
    sizeWatch = new ResizeObserver(() => {
      if (!svg || !laidOut()) return;
      sizeWatch.disconnect();
      sizeWatch = null;
      drawOverlay();
    });
    sizeWatch.observe(el);
  }

  function drawOverlay() {
    if (!svg) return;
    if (!laidOut()) return drawOverlayOnceLaidOut();
    overlay.labels?.remove();
    const layer = document.createElementNS(SVG_NS, "g");
    layer.setAttribute("class", "mg-overlay");
    svg.querySelector("g.graph")?.append(layer); // in the page, so text can be measured
    const placed = [];
    for (const g of index.values()) {
      if (!g.classList.contains("node")) continue;
      const box = g.getBBox();
      placed.push({ x: box.x, y: box.y, w: box.width, h: box.height });
    }
    for (const [id, text] of Object.entries(model.get("node_notes") || {})) {
      const g = index.get(id);
      if (!g) continue;
      // above the leaf (its gradients arrive from below), clear of the notes already placed
      const box = g.getBBox();
      const note = svgText("mg-node-note", box.x + box.width / 2, box.y - 5, text);
      layer.append(note);
      const w = note.getComputedTextLength?.() || text.length * CHAR_WIDTH;
      const center = Math.max(box.x + box.width / 2, w / 2 + 2); // not off the left edge
      note.setAttribute("x", center.toFixed(1));
      const spot = { x: center - w / 2 - 3, y: box.y - 17, w: w + 6, h: 15 };
      for (let tries = 0; tries < 4 && placed.some((other) => overlaps(spot, other)); tries++) {
        spot.y -= 15;
      }
      note.setAttribute("y", (spot.y + 12).toFixed(1));
      placed.push(spot);
    }
    const labels = model.get("show_edge_labels") ? model.get("edge_labels") || {} : {};
    for (const [id, text] of Object.entries(labels)) {
      const g = index.get(id);
      if (!g) continue;
      const label = svgText("mg-edge-label", 0, 0, text);
      label.dataset.edge = id;
      layer.append(label);
      const width = label.getComputedTextLength?.() || text.length * CHAR_WIDTH;
      const spot = labelSpot(g, width, placed);
      if (!spot) {
        label.remove();
        continue;
      }
      placed.push(spot.box);
      label.setAttribute("x", spot.x.toFixed(1));
      label.setAttribute("y", spot.y.toFixed(1));
      label.setAttribute("text-anchor", spot.anchor);
    }
    overlay.labels = layer;
  }

  /** Scrolls the graph area (not the page) so that the current node is in view. */
  function reveal() {
    const current = svg?.querySelector("g.node.mg-current, g.node.mg-error");
    if (!current) return;
    const box = current.getBoundingClientRect();
    const area = el.getBoundingClientRect();
    const margin = 40;
    if (box.left < area.left + margin || box.right > area.right - margin) {
      el.scrollLeft += box.left + box.width / 2 - (area.left + area.width / 2);
    }
    if (box.top < area.top + margin || box.bottom > area.bottom - margin) {
      el.scrollTop += box.top + box.height / 2 - (area.top + area.height / 2);
    }
  }

  function restyle() {
    const nodes = model.get("node_states") || {};
    const edges = model.get("edge_states") || {};
    for (const [id, g] of index) {
      setState(g, (g.classList.contains("node") ? nodes : edges)[id]);
    }
    drawOverlay();
    reveal();
  }

  async function update() {
    const dot = model.get("dot") || "";
    if (dot === drawn) return;
    drawn = dot;
    const mine = ++generation;
    if (!dot.trim()) return message("Nothing to draw yet.");
    const count = countNodes(dot);
    if (count > MAX_NODES) {
      return message(`This graph has ${count} nodes; drawing stops at ${MAX_NODES}.`, "warning");
    }
    if (!index.size) message("Laying out the graph…");
    const graphviz = await loadGraphviz();
    if (mine !== generation) return;
    let drawing;
    try {
      drawing = parseSvg(graphviz.dot(dot));
    } catch (error) {
      console.error("[minigrad_widgets] could not lay out the graph:", error);
      return message(`Could not lay out the graph: ${error.message || error}`, "error");
    }
    // Graphviz sizes the drawing in points; at zoom 1 a 12 pt label is 16 px.
    natural = [parseFloat(drawing.getAttribute("width")) * (4 / 3),
      parseFloat(drawing.getAttribute("height")) * (4 / 3)];
    drawing.removeAttribute("width");
    drawing.removeAttribute("height");
    drawing.setAttribute("role", "img");
    drawing.setAttribute("aria-label", `autograd graph with ${count} nodes`);
    el.replaceChildren(drawing);
    svg = drawing;
    overlay.labels = null;
    applyZoom();
    index = indexById(svg);
    restyle();
  }

  const onScale = () => setZoom(Number(model.get("scale")) || 1);
  const zoomBy = (factor) => setZoom(zoom * factor);
  const pan = panning(el, (factor) => zoomBy(factor));
  const cleanup = () => {
    sizeWatch?.disconnect();
    pan();
  };
  return { el, update, restyle, drawOverlay, fit, zoomBy, onScale, reset: onScale, cleanup };
}

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
