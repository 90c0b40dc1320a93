// Tensors as pictures on the drawing: a small heat map beside each node whose tensor is too
// large for its label (`node_pictures`) and beside the label of each edge whose gradient is
// (`edge_pictures`). Python decided every colour and wrote every value (heat.py); here the
// cells are only placed. Each cell's <title> is its index and exact value (shown on hover).

const SVG_NS = "http://www.w3.org/2000/svg";
const BOX = 44; // px: the longer side of a picture on the drawing

function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** "[i, j]": the index of a heat map's cell (row ``row`` of the flattened leading dims). */
export function indexOf(shape, row, col) {
  if (shape.length <= 1) return `[${col}]`;
  const lead = [];
  let r = row;
  for (let d = shape.length - 2; d >= 0; d--) {
    lead.unshift(r % shape[d]);
    r = Math.floor(r / shape[d]);
  }
  return `[${lead.concat([col]).join(", ")}]`;
}

/** The size of the picture of `heat`: at most BOX px each way, cells at most 8 px (a long,
 * thin tensor gets thin cells along its long side rather than a sliver of a picture). */
export function pictureSize(heat) {
  const rows = heat.rows || 1;
  const cols = heat.cols || 1;
  const cw = Math.min(8, BOX / cols);
  const ch = Math.min(8, BOX / rows);
  return { w: cols * cw + 2, h: rows * ch + 2, cw, ch };
}

/** One heat map as an SVG group at (x, y). */
export function picture(heat, x, y, id) {
  const { w, h, cw, ch } = pictureSize(heat);
  const g = svg("g", { class: "mg-picture", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
  g.dataset.of = id;
  const title = svg("title", {});
  title.textContent = heat.summary || "";
  g.append(title, svg("rect", { class: "mg-picture-frame", x: 0, y: 0, width: w, height: h }));
  const shape = heat.shape || [];
  for (let r = 0; r < (heat.rows || 0); r++) {
    for (let c = 0; c < (heat.cols || 0); c++) {
      const rect = svg("rect", { x: (1 + c * cw).toFixed(2), y: (1 + r * ch).toFixed(2),
        width: cw.toFixed(2), height: ch.toFixed(2), fill: heat.colors[r][c] });
      const tip = svg("title", {});
      tip.textContent = `${indexOf(shape, r, c)} = ${heat.values[r][c]}`;
      rect.append(tip);
      g.append(rect);
    }
  }
  return g;
}

/**
 * Adds the nodes' pictures to `layer` (the drawing's overlay), each to the right of its box;
 * `placed` (boxes already taken) grows with each, so the edge labels placed next avoid them.
 */
export function drawNodePictures(layer, index, model, placed) {
  for (const [id, heat] of Object.entries(model.get("node_pictures") || {})) {
    const g = index.get(id);
    if (!g || !heat) continue;
    const box = g.getBBox();
    const { w, h } = pictureSize(heat);
    const x = box.x + box.width + 4;
    const y = box.y + Math.max(0, (box.height - h) / 2);
    layer.append(picture(heat, x, y, id));
    placed.push({ x, y, w, h });
  }
}

/** Adds the edges' pictures to `layer`, each beside its label (`labels`: edge id -> the
 * <text> placed for it), in the first spot clear of the boxes `placed`. */
export function drawEdgePictures(layer, model, labels, placed) {
  for (const [id, heat] of Object.entries(model.get("edge_pictures") || {})) {
    const label = labels.get(id);
    if (!label || !heat) continue;
    const box = label.getBBox();
    const { w, h } = pictureSize(heat);
    const mid = box.y + box.height / 2 - h / 2;
    const clear = (x, y) => !placed.some((o) => x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h);
    // after the label, before it, then moved up or down; crowded: further right, till clear
    const spots = [];
    for (const dy of [0, -(h / 2 + 6), h / 2 + 6, -(h + 8), h + 8]) {
      spots.push([box.x + box.width + 3, mid + dy], [box.x - w - 3, mid + dy]);
    }
    for (let dx = 12; dx <= 240; dx += 12) spots.push([box.x + box.width + 3 + dx, mid]);
    const [x, y] = spots.find(([sx, sy]) => clear(sx, sy)) || spots[0];
    layer.append(picture(heat, x, y, id));
    placed.push({ x, y, w, h });
  }
}
