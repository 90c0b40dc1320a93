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

/** Shrinks a wide drawing to fit, but not below half size: past that, the area scrolls. */
function limitShrink(svg) {
  const width = parseFloat(svg.getAttribute("width")); // Graphviz gives points
  if (Number.isFinite(width)) svg.style.minWidth = `${Math.round((width * 4) / 3 / 2)}px`;
}

/** Map from DOT id ("n3", "e0") to its <g> element, for restyling without a search. */
function indexById(svg) {
  const index = new Map();
  for (const g of svg.querySelectorAll("g.node[id], g.edge[id]")) index.set(g.id, g);
  return index;
}

const NODE_STATES = ["pending", "current", "done", "flagged", "error"];
const EDGE_STATES = ["pending", "active", "done"];

/**
 * Creates the graph area. `update()` redraws after a change of `dot` (async: Graphviz);
 * `restyle()` applies `node_states`/`edge_states` to the drawing already on screen.
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
  let drawn = null; // the dot text currently on screen
  let generation = 0; // discards a layout that finished after a newer one started

  function message(text, kind = "info") {
    const p = document.createElement("p");
    p.className = `mg-message mg-message-${kind}`;
    p.textContent = text;
    el.replaceChildren(p);
    index = new Map();
  }

  function restyle() {
    const nodes = model.get("node_states") || {};
    const edges = model.get("edge_states") || {};
    for (const [id, g] of index) {
      const isNode = g.classList.contains("node");
      const state = (isNode ? nodes : edges)[id];
      for (const name of isNode ? NODE_STATES : EDGE_STATES) {
        g.classList.toggle(`mg-${name}`, state === name);
      }
    }
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
    let svg;
    try {
      svg = parseSvg(graphviz.dot(dot));
    } catch (error) {
      console.error("[minigrad_widgets] could not lay out the graph:", error);
      return message(`Could not lay out the graph: ${error.message || error}`, "error");
    }
    limitShrink(svg);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `autograd graph with ${count} nodes`);
    el.replaceChildren(svg);
    index = indexById(svg);
    restyle();
  }

  return { el, update, restyle };
}
