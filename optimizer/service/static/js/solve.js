// "Best move here": the solver's answer for the ghost's pose (objective target_pose), its
// progress from the Server-Sent Events stream, its status said plainly, its steps animated.

import { readEvents } from "./api.js";
import { moved } from "./view.js";
import { showSearch } from "./panel.js";
import { judged, colourOf, status } from "./main.js";

const LEG_MS = 300;
let running = null;

export async function bestMove(state) {
  if (!state.ghost || !state.selected) return;
  if (running) running.abort();
  const controller = new AbortController();
  running = controller;
  state.checks.abort();
  if (state.masks) state.masks.abort();
  const box = document.getElementById("search");
  const started = performance.now();
  const g = state.ghost;
  const facing = ((g.facing % 360) + 360) % 360;
  const body = {
    scenario_id: state.scenarioId, unit: state.selected, manoeuvre: state.manoeuvre,
    objective: { name: "target_pose", point: g.centre.map((v) => Math.round(v * 1000) / 1000),
                 facing: Math.round(facing * 1000) / 1000 },
    time_limit: 10,
  };
  const tick = setInterval(() => {
    box.textContent = `searching… ${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 100);
  box.textContent = "searching…";
  document.body.dataset.solving = "1";
  let result = null, problem = null;
  state.improved = 0;
  try {
    const answer = await state.api.stream("/v1/solve/stream", body, controller.signal);
    await readEvents(answer, (name, data) => {
      if (name === "improved") {  // a better legal answer on the way (re-checked)
        clearInterval(tick);
        const o = data.objective || {};
        box.textContent = `searching… found ${o.name} ${Number(o.value).toFixed(3)} ` +
          `after ${Number(data.elapsed_s).toFixed(2)} s`;
        state.improved = (state.improved || 0) + 1;
      } else if (name === "final") {
        result = data;
      } else if (name === "error") {
        problem = data.detail || "the search failed";
      }
    });
  } catch (error) {
    if (error.name !== "AbortError") throw error;
    return;
  } finally {
    clearInterval(tick);
    if (running === controller) running = null;
    document.body.dataset.solving = "0";
  }
  if (!result) { status(problem || "the search ended without an answer", true); return; }
  state.lastSolve = result;
  showSearch(box, result, (performance.now() - started) / 1000);
  if (!result.move || !result.verdict) return;
  state.move = result.move;
  document.getElementById("download-move").disabled = false;
  await animate(state, result.verdict);
  state.ghost = { centre: [...result.verdict.end.centre], facing: result.verdict.end.facing,
                  files: result.verdict.end.files };
  judged(result.verdict);
}

// The unit's shape carried along the poses (after the Pivot, after each step); a wheel is
// drawn as its chord between two poses, which is close enough to watch.
function animate(state, verdict) {
  const poses = verdict.poses;
  const placed = state.placed[state.selected];
  const from = { centre: placed.centre, facing: placed.facing };
  const path = [from, ...(poses || [{ centre: verdict.end.centre, facing: verdict.end.facing }])];
  state.view.paths([path.map((p) => p.centre)], "solver-path");
  document.body.dataset.animating = "1";
  return new Promise((resolve) => {
    const t0 = performance.now();
    const frame = (now) => {
      const t = Math.max(0, now - t0) / LEG_MS;  // a frame may be stamped before t0
      const i = Math.min(Math.floor(t), path.length - 1);
      if (i >= path.length - 1) {
        document.body.dataset.animating = "0";
        resolve();
        return;
      }
      const a = path[i], b = path[i + 1], k = t - i;
      let turn = b.facing - a.facing;
      turn = ((turn + 540) % 360) - 180;
      const at = { centre: [a.centre[0] + (b.centre[0] - a.centre[0]) * k,
                            a.centre[1] + (b.centre[1] - a.centre[1]) * k],
                   facing: a.facing + turn * k };
      const models = Object.fromEntries(Object.entries(placed.models).map(([id, m]) =>
        [id, { centre: moved([m.centre], from, at)[0], facing: m.facing + at.facing - from.facing }]));
      state.view.ghost({ unit: state.selected, base: placed.base, centre: at.centre,
                         facing: at.facing, corners: moved(placed.corners, from, at), models },
                       colourOf(state.selected), "pending", false);
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}
