// The side panel's words: verdicts and search results, said plainly.

function node(tag, text, cls) {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
}

const fmt = (v) => (typeof v === "number" ? (Math.round(v * 1000) / 1000).toString() : String(v));

export function showMessage(box, text) {
  box.replaceChildren(node("p", text, "hint"));
}

// A verdict: LEGAL, ILLEGAL with each broken rule by its name and its measurement, or NOT
// PROVED with the reason.
export function showVerdict(box, verdict, names) {
  box.replaceChildren();
  const kind = verdict.legal === true ? "legal" : verdict.legal === false ? "illegal"
    : "not_proved";
  const head = node("p", { legal: "LEGAL", illegal: "ILLEGAL", not_proved: "NOT PROVED" }[kind],
                    `status-line ${kind}`);
  head.dataset.testid = "verdict-status";
  head.setAttribute("data-testid", "verdict-status");
  box.appendChild(head);
  if (verdict.violations && verdict.violations.length) {
    const list = node("ul");
    list.setAttribute("data-testid", "violations");
    for (const v of verdict.violations) {
      const item = node("li");
      item.setAttribute("data-clause", v.clause);
      item.appendChild(node("strong", names[v.clause] || v.clause));
      item.appendChild(node("span", `: measured ${fmt(v.measured)}, limit ${fmt(v.limit)} ` +
                                    `${v.dimension}`));
      item.appendChild(node("div", v.message, "hint"));
      item.appendChild(node("div", v.clause, "hint"));
      list.appendChild(item);
    }
    box.appendChild(list);
  }
  if (verdict.not_proved) box.appendChild(node("p", verdict.not_proved, "hint"));
  if (verdict.dangerous_terrain && verdict.dangerous_terrain.length) {
    for (const t of verdict.dangerous_terrain) {
      box.appendChild(node("p", `Dangerous Terrain test: ${t.terrain}, ${t.dice} dice` +
                                (t.test === null ? "" : `, test ${t.test}`)));
    }
  }
}

// The batch mask's answer for a whfb7 Move or March ghost. True is sound (a legal way of the
// searched family ends here); false is not "illegal": the mask is conservative and the view
// holds only the family's one-wheel ways on its lattice (1 deg facings).
export function showReach(box, ok, pose, manoeuvre, filesAsked) {
  box.replaceChildren();
  const [x, y, facing, files] = pose;
  const kind = ok ? "legal" : "not_reached";
  const head = node("p", ok ? "REACHED" : "NOT REACHED BY THE WAYS SEARCHED",
                    `status-line ${kind}`);
  head.setAttribute("data-testid", "verdict-status");
  box.appendChild(head);
  const family = manoeuvre === "march" ? "forward, one wheel, forward"
    : "forward, one wheel, forward, after an optional turn on the spot";
  const where = `(${fmt(x)}, ${fmt(y)}) facing ${fmt(facing)}° with ` +
    (ok ? `${files} files` : `${[...new Set(filesAsked)].join(" or ")} files`);
  box.appendChild(node("p", ok
    ? `A legal ${manoeuvre} ends at ${where}: one of the ways searched (${family}) gets there.`
    : `No way of the family searched (${family}; whole-degree facings) ends at ${where}. ` +
      "This is not a verdict of illegal: other ways the rules allow are not in this view. " +
      "Best move here searches for a way.", "hint"));
}

// A search result: its status first (OPTIMAL, or FEASIBLE with the bound), then the move.
export function showSearch(box, result, elapsed) {
  box.replaceChildren();
  const o = result.objective || {};
  let line = result.status;
  if (result.status === "OPTIMAL") line += ` (${o.name} ${fmt(o.value)})`;
  if (result.status === "FEASIBLE") {
    line += ` (${o.name} ${fmt(o.value)}, bound ${fmt(o.bound)}; not proved best)`;
  }
  const head = node("p", line, `status-line ${result.status === "OPTIMAL" ||
                                               result.status === "FEASIBLE" ? "legal" : "illegal"}`);
  head.setAttribute("data-testid", "search-status");
  box.appendChild(head);
  const why = { INFEASIBLE: "no legal move reaches any pose here (proved)",
                NOT_FOUND: "the family searched holds no legal move (nothing proved beyond it)",
                TIMEOUT: "the time limit ended the search before a move was found" };
  if (why[result.status]) box.appendChild(node("p", why[result.status], "hint"));
  if (result.move) {
    const steps = (result.move.steps || []).map((s) => Object.entries(s)
      .map(([k, v]) => `${k} ${fmt(v)}`).join(" ")).join(", ");
    const pivot = result.move.pivot ? `pivot ${fmt(result.move.pivot)}°, ` : "";
    box.appendChild(node("p", `${result.move.manoeuvre}: ${pivot}${steps || "(no steps)"}`));
  }
  if (elapsed !== undefined) box.appendChild(node("p", `${elapsed.toFixed(2)} s`, "hint"));
}
