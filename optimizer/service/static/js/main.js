// The board: loads a scenario, draws it, and lets the player put a ghost of a unit where it
// should go, asking the service (and only the service) whether and how it can get there.

import { Api, ApiError, Latest } from "./api.js";
import { View, moved, playerColour, geojsonPolygons } from "./view.js";
import { showVerdict, showSearch, showMessage, showReach } from "./panel.js";
import { bestMove } from "./solve.js";
import { setupCombat } from "./combat.js";
import { setupRoutes } from "./routes.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const api = new Api("", token);
const view = new View($("board"));

// What the board knows; everything judged in it came from the service.
export const state = {
  api, view,
  name: null, scenario: null, scenarioId: null, system: null, players: [],
  placed: {},          // unit id -> {centre, facing, files, corners, models} (from /v1/check)
  selected: null, manoeuvre: null,
  ghost: null,         // {centre, facing, files}
  shape: null,         // the last drawn ghost: {pose, corners, models}
  verdict: null, move: null,
  undo: [], redo: [],
  ruleNames: {},
  checks: null, regions: null, masks: null,
  turned: null,        // {key, shapes}: the formations a turn on the spot gives (service's)
  reach: null,         // the last mask answer: {pose: [x, y, facing, files], reached}
};
window.board = state;  // for tests and the benchmark
api.reRegister = async () => {
  state.scenarioId = (await api.post("/v1/scenarios", state.scenario)).id;
  return state.scenarioId;
};

const MANOEUVRES = {
  t9a: ["advance", "march", "reform"],
  whfb7: ["move", "march", "reform"],
  infinity: [],
};

function systemOf(rules) {
  if (rules.startsWith("infinity")) return "infinity";
  if (rules.startsWith("whfb7")) return "whfb7";
  return "t9a";
}

export function status(text, error = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", error);
}

export function fail(error) {
  console.warn(String((error && error.stack) || error));
  status(String(error.message || error), true);
}

const baseInches = (mm) => (Array.isArray(mm) ? mm : [mm, mm]).map((v) => v / 25.4);

async function start() {
  state.checks = new Latest(api, "board-check");
  state.regions = new Latest(api, "board-region");
  state.masks = new Latest(api, "board-mask");
  try {
    state.ruleNames = await api.get("/board/rule-names.json");
    const names = (await api.get("/v1/examples")).examples;
    const files = await Promise.all(names.map((n) => api.get(`/v1/examples/${n}`)));
    const select = $("example");
    names.forEach((name, i) => {
      if (!files[i] || !Array.isArray(files[i].units)) return;  // moves, results: not boards
      const option = document.createElement("option");
      option.value = name; option.textContent = name;
      select.appendChild(option);
    });
    select.addEventListener("change", () => loadExample(select.value).catch(fail));
    $("upload").addEventListener("change", upload);
    const wanted = new URLSearchParams(location.search).get("example");
    if (wanted) select.value = wanted;
    await loadExample(select.value);
  } catch (error) { fail(error); }
}

async function loadExample(name) {
  const scenario = await api.get(`/v1/examples/${name}`);
  await load(scenario, name);
}

async function upload(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    await load(JSON.parse(await file.text()), file.name);
  } catch (error) { fail(error); }
}

// A scenario onto the board: registered once (its id then names it), every unit placed.
export async function load(scenario, name, keepHistory = false) {
  status(`loading ${name}…`);
  state.loading = true;
  state.checks.abort(); state.regions.abort(); state.masks.abort();
  try {
    await place(scenario, name, keepHistory);
  } finally {
    state.loading = false;
  }
}

async function place(scenario, name, keepHistory) {
  state.scenario = scenario; state.name = name;
  state.system = systemOf(scenario.rules || "t9a");
  state.players = [...new Set((scenario.units || []).map((u) => u.player))];
  state.scenarioId = (await api.post("/v1/scenarios", scenario)).id;
  if (!keepHistory) { state.undo = []; state.redo = []; }
  const placed = {};
  if (state.system !== "infinity") {
    const answers = await Promise.all(scenario.units.map((u) => standing(u)));
    scenario.units.forEach((u, i) => { placed[u.id] = answers[i]; });
  }
  state.placed = placed;
  view.setTable(scenario.battlefield.width, scenario.battlefield.depth);
  view.terrain(scenario.terrain || []);
  clearMove();
  select(null);
  $("combat-panel").hidden = state.system !== "t9a";
  $("route-panel").hidden = state.system !== "infinity";
  document.dispatchEvent(new CustomEvent("board-loaded"));
  status(`${name}: ${scenario.rules}, ${scenario.units.length} units`);
}

// Where a unit's models stand now: the service's answer to a move that stays put, so the
// board never lays out a formation itself.
async function standing(unit) {
  const still = state.system === "whfb7"
    ? { unit: unit.id, manoeuvre: "move", steps: [] }
    : { unit: unit.id, manoeuvre: "advance", steps: [] };
  let verdict;
  try {
    verdict = await api.post("/v1/check", { scenario_id: state.scenarioId, move: still });
  } catch {
    const reform = { unit: unit.id, manoeuvre: "reform", files: unit.files,
                     facing: unit.facing };
    if (state.system === "t9a") reform.centre = unit.centre;
    verdict = await api.post("/v1/check", { scenario_id: state.scenarioId, move: reform });
  }
  return { ...verdict.end, base: baseInches(unit.base), unit: unit.id };
}

export function unitById(id) {
  return state.scenario.units.find((u) => u.id === id);
}

export function colourOf(id) {
  return playerColour(unitById(id).player, state.players);
}

export function drawUnits() {
  view.clearUnits();
  for (const u of state.scenario.units) {
    const selected = u.id === state.selected;
    const g = state.system === "infinity"
      ? view.trooper(u, colourOf(u.id), selected)
      : view.unit(u.id, state.placed[u.id], colourOf(u.id), state.placed[u.id].base, selected);
    g.addEventListener("pointerdown", (e) => {
      if (state.routeMode && state.selected && state.selected !== u.id) return;
      e.stopPropagation();
      select(u.id);
    });
  }
}

function select(id) {
  state.selected = id;
  $("unit-name").textContent = id || "(click one)";
  const box = $("manoeuvres");
  box.replaceChildren();
  drawUnits();
  if (!id) { clearMove(); return; }
  for (const m of MANOEUVRES[state.system]) {
    const b = document.createElement("button");
    b.textContent = m[0].toUpperCase() + m.slice(1);
    b.dataset.manoeuvre = m;
    b.dataset.testid = `manoeuvre-${m}`;
    b.setAttribute("data-testid", `manoeuvre-${m}`);
    b.addEventListener("click", () => choose(m));
    box.appendChild(b);
  }
  if (state.system === "infinity") {
    document.dispatchEvent(new CustomEvent("trooper-selected", { detail: id }));
  } else {
    choose(MANOEUVRES[state.system][0]);
  }
}

function choose(manoeuvre) {
  state.manoeuvre = manoeuvre;
  for (const b of $("manoeuvres").children) {
    b.setAttribute("aria-pressed", String(b.dataset.manoeuvre === manoeuvre));
  }
  const placed = state.placed[state.selected];
  state.ghost = { centre: [...placed.centre], facing: placed.facing, files: placed.files };
  state.shape = { pose: { centre: placed.centre, facing: placed.facing },
                  corners: placed.corners, models: placed.models, files: placed.files };
  $("files-row").hidden = manoeuvre !== "reform";
  $("files").value = placed.files;
  $("best").disabled = manoeuvre === "reform";
  $("apply").disabled = true;
  clearMove(false);
  ghostChanged();
}

function clearMove(all = true) {
  if (all) { state.ghost = null; state.shape = null; state.manoeuvre = null; }
  state.verdict = null; state.move = null; state.regionKey = null; state.reach = null;
  view.ghost(null); view.witnesses([]); view.region([]); view.paths([]);
  $("verdict").replaceChildren(); $("search").replaceChildren(); $("pose").textContent = "";
  $("download-move").disabled = true;
  if (all) { $("best").disabled = true; $("apply").disabled = true; }
}

// The move the ghost stands for, in the files the CLI reads (docs/formats.md "Move").
export function ghostMove() {
  const g = state.ghost;
  const centre = g.centre.map((v) => Math.round(v * 1000) / 1000);
  const facing = Math.round((((g.facing % 360) + 360) % 360) * 1000) / 1000;
  const move = { unit: state.selected, manoeuvre: state.manoeuvre };
  if (state.manoeuvre === "reform") {
    move.files = g.files;
    move.facing = facing;
    if (state.system === "t9a") move.centre = centre;
    return move;
  }
  if (state.system === "whfb7") return null;  // whfb7 moves are steps: ask the solver
  move.centre = centre;
  move.facing = facing;
  return move;
}

// Draw the ghost at its pose at once (the last answer's shape, moved rigidly) and ask the
// service for the verdict; the answer redraws it as the service placed it.
export function ghostChanged() {
  const g = state.ghost;
  if (!g) return;
  const to = { centre: g.centre, facing: g.facing };
  const sameFiles = state.shape.files === g.files;
  const drawn = {
    unit: state.selected, base: state.placed[state.selected].base,
    centre: g.centre, facing: g.facing,
    corners: moved(state.shape.corners, state.shape.pose, to),
    models: sameFiles ? Object.fromEntries(Object.entries(state.shape.models).map(
      ([k, m]) => [k, { centre: moved([m.centre], state.shape.pose, to)[0],
                        facing: m.facing + g.facing - state.shape.pose.facing }])) : {},
  };
  state.drawn = drawn;
  view.ghost(drawn, colourOf(state.selected), "pending", true);
  showPose(g.centre, g.facing, g.files);
  const move = ghostMove();
  state.move = move;
  $("download-move").disabled = !move;
  if (!move) {
    askMask();
    return;
  }
  state.masks.abort();
  state.checks.post("/v1/check", { scenario_id: state.scenarioId, move })
    .then((answer) => { if (answer) judged(answer.data); })
    .catch(fail);
  if ($("show-region").checked) askRegion();
}

// A whfb7 Move or March is its steps, so it has no end-pose move to check: the ghost's pose
// is judged by the batch mask (POST /v1/mask), true when a legal way of the legal-move view's
// family (forward, one wheel, forward; a Move may turn on the spot first) ends there. A turn
// changes the files, so the pose is asked with the unit's files and with each formation a
// turn on the spot gives (as the service executes the turn); the mask alone decides.
function askMask() {
  turnedShapes().then((shapes) => {
    const g = state.ghost;
    if (!g || !state.drawn) return null;
    const facing = Math.round((((g.facing % 360) + 360) % 360) * 1000) / 1000;
    const at = [...g.centre.map((v) => Math.round(v * 1000) / 1000), facing];
    const poses = [[...at, g.files], ...shapes.map((s) => [...at, s.files])];
    const drawn = state.drawn;
    state.checks.abort();
    return state.masks.post("/v1/mask", { scenario_id: state.scenarioId, unit: state.selected,
                                          manoeuvre: state.manoeuvre, poses })
      .then((answer) => { if (answer) reached(poses, answer.data, [null, ...shapes], drawn); });
  }).catch(fail);
}

// The formations a turn on the spot leaves the selected unit in (the service's ends of a
// Move of one turn), those whose files differ from the unit's: fetched once per unit.
function turnedShapes() {
  const key = `${state.scenarioId}/${state.selected}`;
  if (state.turned && state.turned.key === key) return state.turned.shapes;
  const unit = state.selected;
  const files = state.placed[unit].files;
  const shapes = Promise.all([90, -90, 180].map((turn) => api.post("/v1/check", {
    scenario_id: state.scenarioId, move: { unit, manoeuvre: "move", steps: [{ turn }] },
  }).then((verdict) => verdict.end).catch((error) => {
    if (error instanceof ApiError) return null;  // a turn the service refuses: not asked
    throw error;
  }))).then((ends) => {
    const seen = new Set([files]);
    return ends.filter((e) => e && !seen.has(e.files) && seen.add(e.files));
  }).catch((error) => { state.turned = null; throw error; });
  state.turned = { key, shapes };
  return shapes;
}

function reached(poses, answers, shapes, drawn) {
  const i = answers.findIndex((v) => v === true);
  const pose = poses[Math.max(i, 0)];
  state.reach = { pose, reached: i >= 0, asked: poses };
  let shown = drawn;
  if (i > 0) {  // reached with a turned formation: drawn as the service turned it
    const s = shapes[i];
    const to = { centre: drawn.centre, facing: drawn.facing };
    const from = { centre: s.centre, facing: s.facing };
    shown = { ...drawn, corners: moved(s.corners, from, to),
              models: Object.fromEntries(Object.entries(s.models || {}).map(([k, m]) => [k, {
                centre: moved([m.centre], from, to)[0],
                facing: m.facing + to.facing - from.facing }])) };
  }
  view.ghost(shown, colourOf(state.selected), i >= 0 ? "legal" : "not_reached", true);
  view.witnesses([]);
  showReach($("verdict"), i >= 0, pose, state.manoeuvre, poses.map((p) => p[3]));
}

function showPose(centre, facing, files) {
  $("pose").textContent = `centre (${centre[0].toFixed(2)}, ${centre[1].toFixed(2)}), ` +
    `facing ${(((facing % 360) + 360) % 360).toFixed(1)}°` +
    (state.manoeuvre === "reform" ? `, ${files} files` : "");
}

function judged(verdict) {
  state.verdict = verdict;
  showPose(verdict.end.centre, verdict.end.facing, verdict.end.files);
  const kind = verdict.legal === true ? "legal" : verdict.legal === false ? "illegal"
    : "not_proved";
  const placed = { ...verdict.end, unit: state.selected, base: state.placed[state.selected].base };
  state.shape = { pose: { centre: verdict.end.centre, facing: verdict.end.facing },
                  corners: verdict.end.corners, models: verdict.end.models || {},
                  files: verdict.end.files };
  view.ghost(placed, colourOf(state.selected), kind, true);
  view.witnesses(verdict.violations);
  showVerdict($("verdict"), verdict, state.ruleNames);
  $("apply").disabled = verdict.legal !== true;
}

function askRegion() {
  const g = state.ghost;
  if (!g || !state.manoeuvre) return;
  const body = { scenario_id: state.scenarioId, unit: state.selected,
                 manoeuvre: state.manoeuvre, facing: Math.round(g.facing) };
  if (state.manoeuvre === "reform") body.files = g.files;
  const key = JSON.stringify(body);
  if (key === state.regionKey) return;  // the region shown is this one already
  state.regionKey = null;
  document.body.dataset.region = "pending";
  state.regions.post("/v1/region", body)
    .then((answer) => {
      if (!answer) return;
      state.regionKey = key;
      view.region(geojsonPolygons(answer.data.geometry));
      document.body.dataset.region = "ready";
    })
    .catch(fail);
}

// The pose of the unit after the move, written into the scenario (undoable).
export async function applyEnd(end) {
  const unit = unitById(state.selected);
  const next = JSON.parse(JSON.stringify(state.scenario));
  const u = next.units.find((x) => x.id === unit.id);
  u.centre = end.centre; u.facing = end.facing;
  if (end.files !== undefined && u.files !== undefined) u.files = end.files;
  const keep = state.selected;
  await commit(next);
  select(keep);
}

// A new scenario onto the board as one step of the history (Undo brings back this one).
export async function commit(next) {
  state.undo.push(JSON.stringify(state.scenario));
  state.redo = [];
  await load(next, state.name, true);
}

async function history(from, to) {
  if (!from.length) return;
  to.push(JSON.stringify(state.scenario));
  await load(JSON.parse(from.pop()), state.name, true);
}

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function wire() {
  const svg = $("board");
  let drag = null;
  // Two fingers pinch: the table zooms by the change of their spread about their midpoint,
  // and pans as the midpoint moves.  Any drag the first finger began is dropped.
  const pointers = new Map();  // pointer id -> [clientX, clientY]
  let pinch = null;
  const spread = () => {
    const [[x0, y0], [x1, y1]] = [...pointers.values()];
    return { d: Math.max(Math.hypot(x1 - x0, y1 - y0), 1), x: (x0 + x1) / 2, y: (y0 + y1) / 2 };
  };
  svg.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size >= 2) {
      svg.setPointerCapture(e.pointerId);
      drag = null;
      if (pointers.size === 2) pinch = spread();
      return;
    }
    const target = e.target;
    const onGhost = target.closest && target.closest(".ghost");
    svg.setPointerCapture(e.pointerId);
    if (onGhost && state.ghost) {
      const at = view.world(e.clientX, e.clientY);
      drag = target.dataset.testid === "rotate" ? { kind: "rotate" }
        : { kind: "move", offset: [at[0] - state.ghost.centre[0], at[1] - state.ghost.centre[1]] };
    } else {
      drag = { kind: "pan", x: e.clientX, y: e.clientY, moved: 0 };
    }
  });
  svg.addEventListener("pointermove", (e) => {
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinch && pointers.size === 2) {
      const now = spread();
      // about the last midpoint, then moved with it: what lay between the fingers stays
      view.zoom(pinch.d / now.d, pinch.x, pinch.y);
      view.pan(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
      return;
    }
    if (!drag) return;
    if (drag.kind === "pan") {
      view.pan(e.clientX - drag.x, e.clientY - drag.y);
      drag.moved += Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y);
      drag.x = e.clientX; drag.y = e.clientY;
      return;
    }
    const at = view.world(e.clientX, e.clientY);
    if (drag.kind === "move") {
      state.ghost.centre = [at[0] - drag.offset[0], at[1] - drag.offset[1]];
    } else {
      const c = state.ghost.centre;
      state.ghost.facing = Math.round(Math.atan2(at[1] - c[1], at[0] - c[0]) * 180 / Math.PI);
    }
    ghostChanged();
  });
  const lift = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size < 2) pinch = null;
  };
  const end = (e) => {
    lift(e);
    if (drag && drag.kind === "pan" && drag.moved < 3) {
      document.dispatchEvent(new CustomEvent("board-click",
        { detail: view.world(e.clientX, e.clientY) }));
    }
    drag = null;
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", (e) => { lift(e); drag = null; });
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    view.zoom(Math.exp(e.deltaY * 0.001), e.clientX, e.clientY);
  }, { passive: false });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if ((e.ctrlKey || e.metaKey) && e.key === "z") { history(state.undo, state.redo).catch(fail); return; }
    if ((e.ctrlKey || e.metaKey) && e.key === "y") { history(state.redo, state.undo).catch(fail); return; }
    const g = state.ghost;
    if (!g) return;
    const step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, 0.1],
                   ArrowDown: [0, -0.1] }[e.key];
    if (step) { g.centre = [g.centre[0] + step[0], g.centre[1] + step[1]]; }
    else if (e.key === "q" || e.key === "Q") { g.facing += 1; }
    else if (e.key === "e" || e.key === "E") { g.facing -= 1; }
    else return;
    e.preventDefault();
    ghostChanged();
  });
  $("files").addEventListener("change", () => {
    if (!state.ghost) return;
    state.ghost.files = Math.max(1, parseInt($("files").value, 10) || 1);
    ghostChanged();
  });
  $("show-region").addEventListener("change", () => {
    state.regionKey = null;
    if ($("show-region").checked) askRegion(); else { state.regions.abort(); view.region([]); }
  });
  $("best").addEventListener("click", () => bestMove(state).catch(fail));
  $("apply").addEventListener("click", () => {
    if (state.verdict && state.verdict.legal) applyEnd(state.verdict.end).catch(fail);
  });
  $("undo").addEventListener("click", () => history(state.undo, state.redo).catch(fail));
  $("redo").addEventListener("click", () => history(state.redo, state.undo).catch(fail));
  $("download-scenario").addEventListener("click",
    () => download(`${state.name || "scenario"}.json`, state.scenario));
  $("download-move").addEventListener("click", () => {
    if (state.move) download(`${state.selected}_${state.manoeuvre}.json`, state.move);
  });
  setupCombat(state);
  setupRoutes(state);
}

export { judged, showSearch };
wire();
start();
