// After a round of combat (T9A): casualties per unit -> the nudges (/v1/nudge), and each
// engaged unit's best Combat Reform (/v1/combat-reform).  The board shows the answers.

import { commit, fail, status } from "./main.js";

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
  const accept = cell("button", "Accept");
  accept.setAttribute("data-testid", "accept-reform");
  accept.disabled = !(result.reforms || []).length || !result.verdict ||
    result.verdict.legal !== true;
  accept.title = "Write these reforms into the scenario (Undo steps back)";
  accept.addEventListener("click", () => acceptReform(state, result).catch(fail));
  box.appendChild(accept);
  state.lastReform = result;
  status(`combat reform: ${result.status}`);
}

// The answer written into the scenario, every reformed unit at once: the reforms are one
// player's, each placed after the ones before it, and judged legal together.
async function acceptReform(state, result) {
  const next = JSON.parse(JSON.stringify(state.scenario));
  for (const r of result.reforms) {
    const i = next.units.findIndex((u) => u.id === r.unit);
    const written = i < 0 ? null : reformed(next.units[i], r);
    if (!written) {
      status(`the Combat Reform of ${r.unit} cannot be written into the scenario from ` +
             "the answer alone: not accepted", true);
      return;
    }
    next.units[i] = written;
  }
  await state.api.post("/v1/scenarios", next);  // refused (422): nothing changes
  await commit(next);
  status(`accepted the Combat Reform of ${result.reforms.map((r) => r.unit).join(", ")}`);
}

// A unit as the answer places it, in the scenario's own keys (docs/formats.md "Scenario"):
// its files, centre and facing; each Character at the slot the answer gives it; and every
// slot of the new files x ranks rectangle that no model of the answer takes as `empty`, as
// the checker reads a reform.  Rank-and-file models are interchangeable, so the scenario
// names only where they are not.  Null when the answer does not say where every model of
// the unit stands (then the scenario cannot be written from it).
function reformed(unit, r) {
  const characters = unit.characters || [];
  const slotOf = Object.fromEntries((r.models || []).map((m) => [m.id, m.slot]));
  if (!r.models || r.models.length !== unit.models + characters.length ||
      characters.some((c) => !slotOf[c.id])) return null;
  const taken = new Set(r.models.map((m) => `${m.slot[0]},${m.slot[1]}`));
  if (taken.size !== r.models.length) return null;
  const ranks = 1 + Math.max(...r.models.map((m) => m.slot[0]));
  const empty = [];
  for (let rank = 0; rank < ranks; rank++) {
    for (let file = 0; file < r.files; file++) {
      if (!taken.has(`${rank},${file}`)) empty.push([rank, file]);
    }
  }
  const next = { ...unit, files: r.files, centre: [...r.centre], facing: r.facing };
  if (unit.characters) next.characters = characters.map((c) => ({ ...c, slot: slotOf[c.id] }));
  if (empty.length) next.empty = empty; else delete next.empty;
  return next;
}
