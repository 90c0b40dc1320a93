// Front end of minigrad_widgets (GraphView and BackwardStepper), an anywidget ES module.
//
// It draws what Python says and nothing more: the synced traits (`dot`, `node_states`,
// `edge_states`, `edge_labels`, `node_notes`, `panel`, `step_index`, `total_steps`,
// `playing`, `speed`, `note`, `kind`, `scale`, `strings`, and for a stepper `labels`,
// `counter`, `can_step`, `predict_mode` and `frozen`) come from Python; buttons send
// {event: "step" | "back" | "reset" | "run"} back, and in prediction mode a click on a node
// sends {event: "node_click", node: id}. The only thing decided here is when the Play timer
// sends the next "step". `mountStatic` runs the same code with no kernel, on a record of
// every step (see offline.js and minigrad_widgets/export.py).

import { createControls, startPlayer } from "./controls.js";
import { renderFlow } from "./flow.js";
import { createGraph } from "./graph.js";
import { createOfflineModel } from "./offline.js";
import { createPanel } from "./panel.js";
import { createLegend, createViewBar } from "./view.js";

function initialize({ model }) {
  return startPlayer(model);
}

function render({ model, el }) {
  if (model.get("kind") === "flow") return renderFlow(model, el); // GradientFlow: a chart
  const root = document.createElement("div");
  const asking = () => Boolean(model.get("predict_mode")) && !model.get("frozen");
  const graph = createGraph(model, {
    onNodeClick: (id) => {
      if (asking()) model.send({ event: "node_click", node: id });
    },
    choosable: asking,
  });
  const panel = createPanel(model);
  const controls = createControls(model);
  const viewbar = createViewBar(model, graph);
  const legend = createLegend(model);
  const note = document.createElement("p");
  note.className = "mg-note";
  note.setAttribute("role", "note");
  const body = document.createElement("div");
  body.className = "mg-body";
  const drawing = document.createElement("div");
  drawing.className = "mg-drawing";
  drawing.append(viewbar.el, graph.el, legend.el);
  body.append(drawing, panel.el);
  root.append(controls.el, body, note);
  el.append(root);

  function updateFrame() {
    const kind = model.get("kind") || "graph";
    root.className = `mg-widget mg-kind-${kind}` +
      (model.get("predict_mode") ? " mg-predict" : "") + (model.get("frozen") ? " mg-frozen" : "");
    root.lang = model.get("lang") === "zh" ? "zh-CN" : "en";
    controls.el.hidden = kind !== "stepper" && kind !== "build"; // BuildReplay steps too
    graph.el.title = asking() ? (model.get("labels") || {}).node_tip || "" : "";
    controls.update();
    viewbar.update();
    legend.update();
    panel.update(model.get("panel"));
    const text = model.get("note") || "";
    note.textContent = text;
    note.hidden = !text;
  }

  const listeners = {
    "change:dot": () => graph.update(),
    "change:node_states change:edge_states": () => graph.restyle(),
    "change:edge_labels change:node_notes change:show_edge_labels change:node_pictures change:edge_pictures change:predict_mode change:frozen change:strings":
      () => graph.drawOverlay(),
    "change:scale": () => graph.onScale(),
    "change:edge_sizes change:scale_edges": () => graph.sizeEdges(),
    "change:panel change:note change:kind change:step_index change:total_steps change:playing change:speed change:labels change:counter change:can_step change:predict_mode change:frozen change:strings change:lang change:show_edge_labels change:scale_edges change:legend change:code":
      updateFrame,
  };
  for (const [events, callback] of Object.entries(listeners)) model.on(events, callback);
  updateFrame();
  graph.update();

  return () => {
    for (const [events, callback] of Object.entries(listeners)) model.off(events, callback);
    graph.cleanup();
    root.remove();
  };
}

/** Shows a recorded widget in `el` (a static view: no kernel, no network). */
export function mountStatic(el, data) {
  const model = createOfflineModel(data);
  for (const child of el.querySelectorAll(".mg-static-text")) child.hidden = true;
  const host = document.createElement("div");
  host.className = "mg-static-host";
  el.append(host);
  initialize({ model });
  render({ model, el: host });
  return model;
}

export default { initialize, render };
