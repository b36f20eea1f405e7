// Drawing the board in SVG.  World coordinates are the scenario's inches with y up; the SVG
// is drawn in inches with y down (sy = depth - y), so nothing here scales or judges: it draws
// the geometry the service's answers give.

const SVG = "http://www.w3.org/2000/svg";
const NAMED = { blue: "#1f5fa8", red: "#b02a2a", green: "#2a8a3e", yellow: "#8a5a00" };
const PALETTE = ["#1f5fa8", "#b02a2a", "#2a8a3e", "#8a5a00"];

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// The colour of a player, as `manoeuvre render` colours them.
export function playerColour(player, players) {
  if (!player) return "#505050";
  if (NAMED[player.toLowerCase()]) return NAMED[player.toLowerCase()];
  const i = players.indexOf(player);
  return i >= 0 ? PALETTE[i % PALETTE.length] : "#505050";
}

// The colour of the i-th level of a reachable area (levels in the answer's order).
const LEVEL_COLOURS = ["#1f5fa8", "#e07b00", "#2e8b57", "#8e24aa", "#c2185b", "#00838f"];
export function levelColour(i) {
  return LEVEL_COLOURS[i % LEVEL_COLOURS.length];
}

// A pose moved rigidly: every point of a shape drawn at `from` redrawn at `to`.
export function moved(points, from, to) {
  const turn = ((to.facing - from.facing) * Math.PI) / 180;
  const c = Math.cos(turn), s = Math.sin(turn);
  return points.map(([x, y]) => {
    const dx = x - from.centre[0], dy = y - from.centre[1];
    return [to.centre[0] + dx * c - dy * s, to.centre[1] + dx * s + dy * c];
  });
}

export class View {
  constructor(svg) {
    this.svg = svg;
    this.depth = 48;
    this.width = 72;
    this.box = { x: 0, y: 0, w: 72, h: 48 };
    this.layers = {};
    for (const name of ["table", "terrain", "region", "units", "paths", "ghost", "witness",
                        "labels"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
  }

  // World point -> SVG point.
  p([x, y]) { return [x, this.depth - y]; }
  pts(points) { return points.map((q) => this.p(q).join(",")).join(" "); }

  // SVG client position -> world point.
  world(clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX; pt.y = clientY;
    const q = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return [q.x, this.depth - q.y];
  }

  // World point -> client (page) position: for tests and scripts that drive the mouse.
  client([x, y]) {
    const pt = this.svg.createSVGPoint();
    pt.x = x; pt.y = this.depth - y;
    const q = pt.matrixTransform(this.svg.getScreenCTM());
    return [q.x, q.y];
  }

  setTable(width, depth) {
    this.width = width; this.depth = depth;
    this.scale = Math.max(width, depth) / 72;  // labels keep their size against the table
    const margin = Math.max(width, depth) * 0.04;
    this.box = { x: -margin, y: -margin, w: width + 2 * margin, h: depth + 2 * margin };
    this.applyBox();
    const t = this.layers.table;
    t.replaceChildren();
    el("rect", { x: 0, y: 0, width, height: depth, class: "table" }, t);
    for (let x = 6; x < width; x += 6) {
      el("line", { x1: x, y1: 0, x2: x, y2: depth, class: "grid" }, t);
    }
    for (let y = 6; y < depth; y += 6) {
      el("line", { x1: 0, y1: depth - y, x2: width, y2: depth - y, class: "grid" }, t);
    }
  }

  applyBox() {
    const b = this.box;
    this.svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
  }

  // Zoom by `factor` about a client position (the mouse).
  zoom(factor, clientX, clientY) {
    const pt = this.svg.createSVGPoint();
    pt.x = clientX; pt.y = clientY;
    const q = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    const b = this.box;
    const w = Math.min(Math.max(b.w * factor, 2), 2000);
    const k = w / b.w;
    this.box = { x: q.x - (q.x - b.x) * k, y: q.y - (q.y - b.y) * k, w, h: b.h * k };
    this.applyBox();
  }

  // Pan by a client-pixel delta.
  pan(dx, dy) {
    const ctm = this.svg.getScreenCTM();
    this.box.x -= dx / ctm.a;
    this.box.y -= dy / ctm.d;
    this.applyBox();
  }

  terrain(features) {
    const t = this.layers.terrain;
    t.replaceChildren();
    for (const f of features) {
      const kind = f.kind || "terrain";
      if (f.polygon) {
        const g = el("g", { class: `terrain kind-${kind}`, "data-id": f.id }, t);
        el("polygon", { points: this.pts(f.polygon) }, g);
        const [cx, cy] = centroid(f.polygon);
        let label = `${f.id} (${kind})`;
        if (f.height !== undefined) label += ` h${f.height}"`;
        if (f.level) label += ` @${f.level}"`;
        this.label(label, [cx, cy], "terrain-label", t);
      } else if (f.from && f.to) {  // a ladder or stairs: a line between two levels
        el("line", { x1: f.from[0], y1: this.depth - f.from[1], x2: f.to[0],
                     y2: this.depth - f.to[1], class: `terrain kind-${kind}` }, t);
        this.label(`${f.id} ${f.from[2]}"→${f.to[2]}"`, [f.to[0], f.to[1]], "terrain-label", t);
      } else if (f.centre) {
        el("circle", { cx: f.centre[0], cy: this.depth - f.centre[1],
                       r: (f.base || 25) / 50.8, class: `terrain kind-${kind}` }, t);
      }
    }
  }

  label(text, at, cls = "unit-label", parent = this.layers.labels) {
    const [x, y] = this.p(at);
    const size = (cls === "terrain-label" ? 0.8 : 1.0) * (this.scale || 1);
    const node = el("text", { x, y, class: cls, "font-size": size }, parent);
    node.textContent = text;
    return node;
  }

  clearUnits() {
    this.layers.units.replaceChildren();
    this.layers.labels.replaceChildren();
  }

  // A rank-and-file unit: its boundary and each model's base, as the service placed them.
  unit(id, placed, colour, base, selected) {
    const g = el("g", { class: `unit${selected ? " selected" : ""}`, "data-unit": id,
                        "data-centre": placed.centre.join(","),
                        "data-facing": String(placed.facing) }, this.layers.units);
    this.bases(g, id, placed, colour, base);
    this.label(id, placed.centre);
    return g;
  }

  bases(g, id, placed, colour, base) {
    el("polygon", { points: this.pts(placed.corners), class: "boundary", stroke: colour }, g);
    const [w, d] = base;
    for (const [mid, m] of Object.entries(placed.models || {})) {
      const [x, y] = this.p(m.centre);
      const character = !new RegExp(`^${escape(id)}\\.\\d+$`).test(mid);
      el("rect", { x: x - w / 2, y: y - d / 2, width: w, height: d,
                   transform: `rotate(${90 - m.facing} ${x} ${y})`, fill: colour,
                   class: character ? "model character" : "model", "data-model": mid }, g);
    }
    const [fl, fr] = placed.corners;
    el("line", { x1: fl[0], y1: this.depth - fl[1], x2: fr[0], y2: this.depth - fr[1],
                 class: "front", stroke: colour }, g);
  }

  // An Infinity trooper: a round base (diameter in mm) at its level.
  trooper(unit, colour, selected) {
    const [x, y] = this.p(unit.centre);
    const g = el("g", { class: `unit trooper${selected ? " selected" : ""}`,
                        "data-unit": unit.id, "data-centre": unit.centre.join(",") },
                 this.layers.units);
    el("circle", { cx: x, cy: y, r: unit.base / 50.8, fill: colour, class: "model" }, g);
    this.label(`${unit.id}${unit.level ? ` @${unit.level}"` : ""}`, unit.centre);
    return g;
  }

  // The ghost: the unit where the player is putting it, coloured by the verdict.
  ghost(placed, colour, state, handle) {
    const layer = this.layers.ghost;
    layer.replaceChildren();
    if (!placed) return null;
    const g = el("g", { class: `ghost ${state}`, "data-testid": "ghost",
                        "data-state": state, "data-centre": placed.centre.join(","),
                        "data-facing": String(placed.facing) }, layer);
    this.bases(g, placed.unit, placed, colour, placed.base);
    if (handle) {
      const [fl, fr] = placed.corners;
      const mid = [(fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2];
      const f = (placed.facing * Math.PI) / 180;
      const knob = [mid[0] + Math.cos(f) * 1.2, mid[1] + Math.sin(f) * 1.2];
      const [kx, ky] = this.p(knob);
      const [mx, my] = this.p(mid);
      el("line", { x1: mx, y1: my, x2: kx, y2: ky, class: "handle-line" }, g);
      el("circle", { cx: kx, cy: ky, r: 0.45, class: "handle", "data-testid": "rotate" }, g);
    }
    return g;
  }

  // Each violation's witness in red (a segment, polyline or ring), dots at its ends.
  witnesses(violations) {
    const layer = this.layers.witness;
    layer.replaceChildren();
    for (const v of violations || []) {
      const w = v.witness;
      if (!w || !w.length) continue;
      const g = el("g", { class: "witness", "data-clause": v.clause }, layer);
      el("polyline", { points: this.pts(w) }, g);
      for (const q of [w[0], w[w.length - 1]]) {
        const [x, y] = this.p(q);
        el("circle", { cx: x, cy: y, r: 0.18 }, g);
      }
    }
  }

  // A GeoJSON Polygon or MultiPolygon (a legal region), or Infinity's polygons (rings).
  region(polygons, cls = "region") {
    const layer = this.layers.region;
    layer.replaceChildren();
    for (const rings of polygons) {
      const d = rings.map((ring) => "M" + ring.map((q) => this.p(q).join(",")).join("L") + "Z")
        .join(" ");
      el("path", { d, class: cls, "fill-rule": "evenodd" }, layer);
    }
  }

  // The reachable area level by level, each level in its own colour (levelColour).
  levels(levels) {
    const layer = this.layers.region;
    layer.replaceChildren();
    levels.forEach((level, i) => {
      const colour = levelColour(i);
      for (const rings of level.polygons) {
        const d = rings.map((ring) => "M" + ring.map((q) => this.p(q).join(",")).join("L") + "Z")
          .join(" ");
        el("path", { d, class: "reach", "fill-rule": "evenodd", "data-level": level.level,
                     style: `fill: ${colour}; stroke: ${colour}` }, layer);
      }
    });
  }

  paths(lines, cls = "route") {
    const layer = this.layers.paths;
    layer.replaceChildren();
    for (const line of lines) {
      el("polyline", { points: this.pts(line), class: cls }, layer);
    }
  }

  arrows(pairs) {
    const layer = this.layers.paths;
    layer.replaceChildren();
    for (const [a, b] of pairs) {
      const [x1, y1] = this.p(a), [x2, y2] = this.p(b);
      el("line", { x1, y1, x2, y2, class: "nudge-arrow", "marker-end": "url(#arrow)" }, layer);
    }
  }
}

export function centroid(points) {
  let x = 0, y = 0;
  for (const q of points) { x += q[0]; y += q[1]; }
  return [x / points.length, y / points.length];
}

function escape(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// GeoJSON geometry -> a list of polygons, each a list of rings.
export function geojsonPolygons(geometry) {
  if (!geometry) return [];
  if (geometry.type === "Polygon") return [geometry.coordinates];
  if (geometry.type === "MultiPolygon") return geometry.coordinates;
  if (geometry.type === "GeometryCollection") {
    return geometry.geometries.flatMap(geojsonPolygons);
  }
  return [];
}
