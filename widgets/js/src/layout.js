// Where labels go on a drawing, from Graphviz's layout alone (no measuring in the page).

// Where things are is read from Graphviz's layout (the coordinates in the SVG's attributes),
// never measured in the page: a drawing made in an output area that is hidden or not yet in
// the page (Run All) has no boxes to measure, and getBBox() would say (0, 0).
const numbers = (text) => (String(text || "").match(/-?\d*\.?\d+(?:e-?\d+)?/gi) || []).map(Number);

/** The box of a node, from the points of its shapes. */
export function nodeBox(g) {
  const xs = [];
  const ys = [];
  for (const shape of g.querySelectorAll("polygon, path, polyline")) {
    const v = numbers(shape.getAttribute(shape.tagName === "path" ? "d" : "points"));
    for (let i = 0; i + 1 < v.length; i += 2) {
      xs.push(v[i]);
      ys.push(v[i + 1]);
    }
  }
  for (const e of g.querySelectorAll("ellipse")) {
    const [cx, cy, rx, ry] = ["cx", "cy", "rx", "ry"].map((a) => Number(e.getAttribute(a)));
    xs.push(cx - rx, cx + rx);
    ys.push(cy - ry, cy + ry);
  }
  if (!xs.length) return null;
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** A point at a fraction of an edge's path (Graphviz writes "M x,y C x,y x,y x,y ..."). */
export function pathSampler(d) {
  const v = numbers(d);
  if (v.length < 2) return null;
  const points = [[v[0], v[1]]];
  for (let i = 2; i + 5 < v.length; i += 6) {
    const [p0, c1, c2, p3] = [points[points.length - 1], [v[i], v[i + 1]], [v[i + 2], v[i + 3]],
      [v[i + 4], v[i + 5]]];
    for (let k = 1; k <= 12; k++) {
      const t = k / 12;
      const u = 1 - t;
      const a = u * u * u;
      const b = 3 * u * u * t;
      const c = 3 * u * t * t;
      const e = t * t * t;
      points.push([a * p0[0] + b * c1[0] + c * c2[0] + e * p3[0],
        a * p0[1] + b * c1[1] + c * c2[1] + e * p3[1]]);
    }
  }
  const lengths = [0];
  for (let i = 1; i < points.length; i++) {
    lengths.push(lengths[i - 1] + Math.hypot(points[i][0] - points[i - 1][0],
      points[i][1] - points[i - 1][1]));
  }
  const total = lengths[lengths.length - 1];
  return (fraction) => {
    const want = total * fraction;
    let i = 1;
    while (i < lengths.length - 1 && lengths[i] < want) i++;
    const span = lengths[i] - lengths[i - 1] || 1;
    const t = (want - lengths[i - 1]) / span;
    return { x: points[i - 1][0] + t * (points[i][0] - points[i - 1][0]),
      y: points[i - 1][1] + t * (points[i][1] - points[i - 1][1]) };
  };
}

// The labels' font (widget.css sets the same): measured on a canvas, which needs no layout.
export const LABEL_FONT = "bold 11px \"DejaVu Sans Mono\", Menlo, Consolas, \"Courier New\", monospace";
let measure = null;
export function textWidth(text) {
  measure ||= document.createElement("canvas").getContext("2d");
  if (!measure) return text.length * 7;
  measure.font = LABEL_FONT;
  return measure.measureText(text).width;
}

const ALONG = [0.5, 0.3, 0.7, 0.2, 0.8];
export const overlaps = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/** Where an edge's label goes: near the middle of its path, beside the line, and not on a
 * label or node already placed (two edges between the same nodes, as in y * y). */
export function labelSpot(at, w, placed) {
  let best = null;
  let fewest = Infinity;
  for (const dy of [0, -14, 14, -28, 28]) {
    for (const t of ALONG) {
      const p = at(t);
      for (const [x, anchor] of [[p.x + 5, "start"], [p.x - 5, "end"]]) {
        // the box of the text and its halo
        const box = { x: (anchor === "start" ? x : x - w) - 3, y: p.y + dy - 7, w: w + 6, h: 15 };
        const spot = { x, y: p.y + dy + 4, anchor, box };
        if (box.x < 0) continue; // off the drawing's left edge: cut off
        const hits = placed.filter((other) => overlaps(box, other)).length;
        if (!hits) return spot;
        if (hits < fewest) [best, fewest] = [spot, hits];
      }
    }
  }
  // crowded: slide to the right of whatever is in the way, a little away from the line
  const p = at(0.5);
  const box = { x: p.x + 2, y: p.y - 7, w: w + 6, h: 15 };
  for (let tries = 0; tries < 8; tries++) {
    const hit = placed.filter((other) => overlaps(box, other));
    if (!hit.length) return { x: box.x + 3, y: p.y + 4, anchor: "start", box };
    box.x = Math.max(...hit.map((other) => other.x + other.w)) + 1;
  }
  return best;
}

