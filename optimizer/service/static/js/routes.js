// Infinity: click a destination for the selected trooper and see its route (/v1/route) and
// who can react along it (its exposure: Line of Fire, Zone of Control), and where a Move can
// end on each level (/v1/route/reach).

import { fail, status } from "./main.js";
import { levelColour } from "./view.js";

export function setupRoutes(state) {
  document.addEventListener("trooper-selected", () => {
    state.routeMode = true;
    state.view.paths([]);
    if (document.getElementById("show-reach").checked) reach(state).catch(fail);
  });
  document.addEventListener("board-click", (e) => {
    if (state.system !== "infinity" || !state.selected) return;
    route(state, e.detail).catch(fail);
  });
  document.getElementById("reach-skill").addEventListener("change", () => {
    if (document.getElementById("show-reach").checked) reach(state).catch(fail);
  });
  document.getElementById("show-reach").addEventListener("change", () => {
    if (document.getElementById("show-reach").checked) reach(state).catch(fail);
    else state.view.region([]);
  });
}

async function route(state, to) {
  status("routing…");
  const result = await state.api.post("/v1/route", {
    scenario_id: state.scenarioId, unit: state.selected,
    to: to.map((v) => Math.round(v * 100) / 100), exposure: true,
  });
  state.view.paths(result.path ? [result.path.map((p) => [p[0], p[1]])] : [], "route");
  const box = document.getElementById("route");
  box.replaceChildren();
  const head = document.createElement("p");
  head.className = `status-line ${result.legal ? "legal" : "illegal"}`;
  head.setAttribute("data-testid", "route-status");
  head.textContent = `${result.status}: ${result.skill || ""} ` +
    (result.length !== undefined ? `${result.length.toFixed(2)}"` : "");
  box.appendChild(head);
  if (result.aro_by) {
    const who = document.createElement("p");
    who.setAttribute("data-testid", "route-aro");
    who.textContent = `ARO by: ${result.aro_by.join(", ") || "nobody"}; ` +
      `Zone of Control only: ${result.zoc_by.join(", ") || "nobody"} ` +
      `(${result.exposed.toFixed(2)}" in Line of Fire, sampled every ${result.sampled}")`;
    box.appendChild(who);
  }
  for (const p of result.path || []) {
    const line = document.createElement("div");
    line.className = "hint";
    line.textContent = `(${p[0].toFixed(2)}, ${p[1].toFixed(2)}) level ${p[2]}"`;
    box.appendChild(line);
  }
  for (const v of result.violations || []) {
    const line = document.createElement("p");
    line.textContent = `${state.ruleNames[v.clause] || v.clause}: ${v.message}`;
    box.appendChild(line);
  }
  status(`route: ${result.status}`);
}

async function reach(state) {
  if (!state.selected) return;
  const body = { scenario_id: state.scenarioId, unit: state.selected };
  const skill = document.getElementById("reach-skill").value;
  if (skill) body.skill = skill;
  const result = await state.api.post("/v1/route/reach", body);
  const levels = result.levels || [];
  state.view.levels(levels);
  const box = document.getElementById("route");
  box.replaceChildren();
  // The legend: each level's colour, height and area, in the answer's order.
  const legend = document.createElement("ul");
  legend.className = "legend";
  legend.setAttribute("data-testid", "reach-legend");
  levels.forEach((l, i) => {
    const item = document.createElement("li");
    item.dataset.level = l.level;
    item.dataset.colour = levelColour(i);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = levelColour(i);
    item.append(swatch, `level ${l.level}": ${l.area.toFixed(1)} sq in`);
    legend.appendChild(item);
  });
  box.appendChild(legend);
  if (!levels.length) {
    const none = document.createElement("p");
    none.textContent = `${result.status}: no end reachable`;
    box.appendChild(none);
  }
}
