"""The report of benchmarks/bench_reform.py: a row per scene (the solver's time and status, the
baselines', the values side by side) and the summary over the scenes."""

from __future__ import annotations

import math
import statistics
from typing import Any

from benchmarks.reform_scenes import Json

# -- report ----------------------------------------------------------------------------------

JOINT_TUPLES = 5_000_000  # the exhaustive joint baseline runs up to this many tuples
TARGET_S = 0.5       # the target: OPTIMAL in <= 0.5 s median

HEADER = (f"{'scene':<10} {'models':>6} {'foes':>4} {'solver s (med/min)':>18} "
          f"{'status (family)':<22} {'value':<14} {'legal':<5} {'lattice s':>9} "
          f"{'value':<14} {'+events s':>9} {'value':<14} {'ratio':>6} same+ (by the values "
          "claimed; by the contacts counted after)")


def _values(units: list[Json], key: str) -> str:
    return " ".join("-" if u[key] is None else f"{u[key][0]},{u[key][1]}" for u in units)


def print_row(r: dict[str, Any]) -> None:
    s, units = r["solver"], r["units"]
    times = f"{s['median_s']:.2f} / {s['min_s']:.2f}"
    status = " ".join(f"{u['status']}({(u['family_status'] or '')[:3]})" for u in units)
    legal = "".join("y" if u["legal"] else ("-" if u["legal"] is None else "N") for u in units)
    base = {k: " ".join(f"{b['value'][0]},{b['value'][1]}" if b["found"] else "-"
                        for b in r[k]["units"]) for k in ("lattice", "events")}
    verdicts = sorted({u["vs_lattice"] for u in units} | {u["vs_events"] for u in units})
    counted = sorted({u["vs_counted"] for u in units})
    print(f"{r['scene']:<10} {r['models']:>6} {r['enemies']:>4} {times:>18} {status:<22} "
          f"{_values(units, 'value'):<14} {legal:<5} {r['lattice']['median_s']:>9.2f} "
          f"{base['lattice']:<14} {r['events']['median_s']:>9.2f} {base['events']:<14} "
          f"{r['ratio_events']:>6.1f} {'/'.join(verdicts)} (counted: {'/'.join(counted)})")
    if s["error"]:
        print(f"{'':<10} combat_reforms raised {s['error']}; timed: {s['timed']}")
    if "baseline_sequence" in r:
        b = r["baseline_sequence"]
        print(f"{'':<10} totals (own, enemy): solver one at a time {r['sequential_total']}; "
              f"baseline's own sequence {b['total']} in {b['seconds']:.1f} s (legal "
              f"together: {b['legal']})")
    if "joint" in r:
        j = r["joint"]
        if j["error"]:
            print(f"{'':<10} joint (combat_reforms joint=True) raised {j['error']}")
        else:
            print(f"{'':<10} joint (combat_reforms joint=True): {j['median_s']:.2f} / "
                  f"{j['min_s']:.2f} s ({len(j['times_s'])} runs; CPU "
                  f"{j.get('cpu_median_s', math.nan):.2f} s median), "
                  + ", ".join(f"{u['unit']} {u['status']}({(u['family_status'] or '')[:3]}) "
                              f"{u['value']}{' jointly' if u.get('jointly') else ' alone'}"
                              for u in j["units"])
                  + f"; total {j['total']} ({j['enemy_once']} enemy models once), "
                  f"legal {j['legal']}, peak memory {j['peak_mb']:.0f} MB")
            b = j["baseline"]
            ticks = (j["units"][0].get("search") or {}).get("displacement_ticks")
            if b["ran"]:
                print(f"{'':<10} joint baseline (every tuple of candidates): {b['seconds']:.2f} "
                      f"s, {b['tuples']} tuples, own {b.get('own')}, enemy {b.get('enemy')}, "
                      f"displacement {b.get('displacement_ticks')} ticks (solver {ticks}), "
                      f"legal {b.get('legal')}")
            else:
                print(f"{'':<10} joint baseline: {b['tuples']:.3g} tuples, not run (past "
                      f"{JOINT_TUPLES:,}; counting them took {b['seconds_to_count']:.1f} s)")
    for u, b in zip(units, r["events"]["units"], strict=True):
        notes = []
        if u["true"] is not None and u["value"] is not None and u["true"] != u["value"]:
            notes.append(f"counted after: {u['true']}")
        if u["legal"] is False:
            notes.append(f"REFUSED by the checker: {', '.join(u['clauses'])}")
        if u["reason"]:
            notes.append(u["reason"])
        if u.get("search") and "candidates" in u["search"]:
            notes.append(f"search: {u['search']['candidates']} candidates, "
                         f"{u['search']['assignments']} assignments")
        elif u.get("search"):
            notes.append(f"search: {u['search']}")
        if "WORSE" in (u["vs_lattice"], u["vs_events"], u["vs_counted"]) \
                or u["legal"] is False:
            notes.append(f"baseline: {b['files']} files, x {b['x']:.4f} on {b['line']}, "
                         f"value {b['value']}, counted after {b['true']}")
        c = b["counts"]
        print(f"{'':<10} {u['unit']}: {u['files']} files, before {u['contacts_before']}, "
              f"bound {u['bound']}; baseline {c['candidates']} offsets x files "
              f"({c['events']} events), {c['allowed']} allowed, {c['matchings']} matchings, "
              f"{c['checked']} checks ({c['refused']} refused), audit "
              f"{c['audited'] - c['audit_mismatch']}/{c['audited']}"
              + (f"; {'; '.join(notes)}" if notes else ""))


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    medians = [r["solver"]["median_s"] for r in results]
    units = [u for r in results for u in r["units"]]
    worse = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
             if "WORSE" in (u["vs_lattice"], u["vs_events"])]
    wrong = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
             if u["legal"] is False]
    worse_counted = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
                     if u["vs_counted"] == "WORSE"]
    # A bug, not a timeout: the family's optimum proved, and the baseline beats it.
    proved_beaten = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
                     if u["family_status"] == "OPTIMAL"
                     and "WORSE" in (u["vs_lattice"], u["vs_events"])]
    # The solver's value against the contacts counted on the scene after its answer.
    miscounted = [f"{r['scene']}:{u['unit']}" for r in results for u in r["units"]
                  if u["legal"] and u["true"] is not None and u["value"] != u["true"]]
    statuses: dict[str, int] = {}
    family: dict[str, int] = {}
    for u in units:
        statuses[u["status"]] = statuses.get(u["status"], 0) + 1
        family[u["family_status"]] = family.get(u["family_status"], 0) + 1
    out: dict[str, Any] = {
        "median_solver_s": statistics.median(medians), "max_solver_s": max(medians),
        "min_solver_s": min(medians), "scenes": len(results), "unit_reforms": len(units),
        "statuses": statuses, "family_statuses": family, "worse": worse, "wrong": wrong,
        "proved_but_beaten": proved_beaten, "worse_counted": worse_counted,
        "value_not_counted": miscounted,
        "errors": [r["scene"] for r in results if r["solver"]["error"]],
        "median_ratio_events": statistics.median(r["ratio_events"] for r in results),
        "median_ratio_lattice": statistics.median(r["ratio_lattice"] for r in results),
        "by_enemies": {}, "by_units": {}}
    print(f"\nsummary over {len(results)} scenes, {len(units)} unit reforms:")
    print(f"  solver median time {out['median_solver_s']:.2f} s (min "
          f"{out['min_solver_s']:.2f}, max {out['max_solver_s']:.2f}); target OPTIMAL in "
          f"<= {TARGET_S} s median: {'met' if out['median_solver_s'] <= TARGET_S else 'MISSED'}")
    print(f"  status under the rules {statuses}; the family's {family}")
    print(f"  ratio baseline / solver: lattice median {out['median_ratio_lattice']:.1f}, "
          f"lattice+events median {out['median_ratio_events']:.1f}")
    for key, group in (("by_enemies", lambda r: r["enemies"]),
                       ("by_units", lambda r: len(r["units"]))):
        for size in sorted({group(r) for r in results}):
            rows = [r for r in results if group(r) == size]
            row = {"scenes": len(rows),
                   "solver_s": statistics.median(r["solver"]["median_s"] for r in rows),
                   "lattice_s": statistics.median(r["lattice"]["median_s"] for r in rows),
                   "events_s": statistics.median(r["events"]["median_s"] for r in rows),
                   "optimal": sum(u["status"] == "OPTIMAL" for r in rows for u in r["units"]),
                   "reforms": sum(len(r["units"]) for r in rows)}
            out[key][size] = row
            print(f"  {key.replace('_', ' ')} {size} ({row['scenes']} scenes): solver "
                  f"{row['solver_s']:.2f} s, baseline {row['lattice_s']:.2f} / "
                  f"{row['events_s']:.2f} s, OPTIMAL {row['optimal']}/{row['reforms']}")
    print(f"  solver's value differs from the contacts counted after its answer: "
          f"{', '.join(miscounted) or 'nowhere'} (off-line enemies count there too)")
    print(f"  solver worse by the contacts counted after: {', '.join(worse_counted) or 'nowhere'}")
    print(f"  solver worse than the baseline by the values claimed: "
          f"{', '.join(worse) or 'nowhere'} (of which with the family's optimum claimed "
          f"proved: {', '.join(proved_beaten) or 'none'}); proposals "
          f"the checker refuses: {', '.join(wrong) or 'none'}; combat_reforms raised on: "
          f"{', '.join(out['errors']) or 'none'}")
    return out
