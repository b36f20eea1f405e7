// After a round of combat (T9A): casualties per unit -> the nudges (/v1/nudge), and each
// engaged unit's best Combat Reform (/v1/combat-reform).  The board shows the answers.

import { fail, status } from "./main.js";

function cell(tag, text) {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function setupCombat(state) {
  document.addEventListener("board-loaded", () => {
    const box = document.getElementById("casualties");
    box.replaceChildren();
    document.getElementById("combat-result").replaceChildren();
    if (state.system !== "t9a") return;
    const table = cell("table");
    table.className = "casualties";
    for (const u of state.scenario.units) {
      const row = cell("tr");
      row.appendChild(cell("td", u.id));
      const td = cell("td");
      const input = cell("input");
      input.type = "number"; input.min = "0"; input.step = "1"; input.value = "0";
      input.dataset.unit = u.id;
      input.setAttribute("data-testid", `casualties-${u.id}`);
      td.appendChild(input);
      row.appendChild(td);
      table.appendChild(row);
    }
    box.appendChild(table);
  });
  document.getElementById("nudge").addEventListener("click", () => nudge(state).catch(fail));
  document.getElementById("combat-reform").addEventListener(
    "click", () => combatReform(state).catch(fail));
}

async function nudge(state) {
  const casualties = {};
  for (const input of document.querySelectorAll("#casualties input")) {
    const n = parseInt(input.value, 10);
    if (n > 0) casualties[input.dataset.unit] = n;
  }
  status("nudging…");
  const result = await state.api.post("/v1/nudge", { scenario_id: state.scenarioId, casualties });
  const box = document.getElementById("combat-result");
  box.replaceChildren(cell("p", `Nudge: ${result.status}`));
  box.firstChild.className = "status-line";
  const list = cell("ul");
  list.setAttribute("data-testid", "nudges");
  for (const n of result.nudges || []) {
    const legs = n.legs.map((leg) => Object.entries(leg).map(([k, v]) => `${k} ${v.toFixed(3)}"`)
      .join("")).join(", then ");
    const item = cell("li", `${n.unit}: ${legs} (${n.distance.toFixed(3)}")`);
    item.setAttribute("data-unit", n.unit);
    list.appendChild(item);
  }
  if (!(result.nudges || []).length) list.appendChild(cell("li", "no unit needs a nudge"));
  box.appendChild(list);
  for (const u of result.units || []) {
    box.appendChild(cell("p", `${u.id} now ${u.models} models in ${u.files} files at ` +
                              `(${u.centre.map((v) => v.toFixed(2)).join(", ")}), ${u.facing}°`));
  }
  if ((result.removed || []).length) box.appendChild(cell("p", `removed: ${result.removed.join(", ")}`));
  if ((result.combats || []).length) {
    box.appendChild(cell("p", `combats: ${result.combats.map((c) => c.join(" vs ")).join("; ")}`));
  }
  const arrows = (result.units || []).filter((u) => state.placed[u.id])
    .map((u) => [state.placed[u.id].centre, u.centre]);
  state.view.arrows(arrows);
  state.lastNudge = result;
  status(`nudge: ${result.status}`);
}

async function combatReform(state) {
  status("searching the Combat Reform…");
  const result = await state.api.post("/v1/combat-reform",
                                      { scenario_id: state.scenarioId, effort: 5 });
  const box = document.getElementById("combat-result");
  box.replaceChildren();
  const o = result.objective || {};
  const head = cell("p", `Combat Reform: ${result.status}` +
                         (o.value !== undefined ? ` (${JSON.stringify(o.value)}, bound ` +
                                                   `${JSON.stringify(o.bound)})` : ""));
  head.className = "status-line";
  head.setAttribute("data-testid", "reform-status");
  box.appendChild(head);
  const layer = state.view.layers.paths;
  layer.replaceChildren();
  for (const r of result.reforms || []) {
    box.appendChild(cell("p", `${r.unit}: ${r.files} files at (${r.centre.map((v) => v.toFixed(2))
      .join(", ")}), ${r.facing}°; models in contact ${r.contacts_before} → ${r.contacts_after}`));
    for (const m of r.models) {
      const [x, y] = state.view.p(m.position);
      const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      dot.setAttribute("cx", x); dot.setAttribute("cy", y); dot.setAttribute("r", 0.25);
      dot.setAttribute("class", "reform-model");
      layer.appendChild(dot);
    }
  }
  status(`combat reform: ${result.status}`);
}
