"""The HTTP service under loopback load: `manoeuvre serve` in its own process, driven by an
httpx client at 1, 8 and 32 concurrent requests, beside the same calls made in-process in the
same run.

    .venv/bin/python benchmarks/bench_service.py [--checks N] [--solves N] [--masks N]
                                                 [--poses N] [--workers N] [--json OUT]

Three calls, on examples/spears.json (registered once; requests name it by id):
- check: `POST /v1/check` of examples/spears_march.json; in-process, `check_answer` (what
  the endpoint runs) on the scenario already read;
- solve: `POST /v1/solve`, spears March forward (OPTIMAL, ended by the search's proof, not
  the clock); in-process, `solve_answer`;
- mask: `POST /v1/mask` with `application/octet-stream`, --poses random end poses about the
  unit; in-process, `BatchJudge.mask` on the same poses.

For each: requests per second, p50 / p99 latency, errors (any answer but 200; 503s counted
apart as `busy`), and for check the service's p50 overhead over in-process at one client;
the mask's poses per second; the server's RSS after warm-up (a fifth of the load at every
level first) and at the end.  Bounded: the
counts above (defaults: 2000 checks, 60 solves, 30 masks per concurrency level) and a
120 s cap per level.  Timings, not tests: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from optimizer.service.local import spawn

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
LEVELS = (1, 8, 32)
LEVEL_CAP_S = 120.0


def example(name: str) -> Any:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(workers: int, processes: bool = False) -> tuple[subprocess.Popen[bytes], str]:
    try:
        return spawn("--workers", str(workers), "--queue", "64",
                     *(["--processes"] if processes else []), cwd=ROOT, quiet=False)
    except RuntimeError as exc:
        raise SystemExit(str(exc)) from None


def poses_about_spears(n: int) -> np.ndarray:
    rng = np.random.default_rng(3)
    return np.column_stack([36 + rng.uniform(-10, 10, n), 12 + rng.uniform(-10, 10, n),
                            rng.choice([0.0, 45.0, 90.0, 135.0], n), np.full(n, 5.0)])


def summary(latencies: list[float], wall: float, errors: int, busy: int) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {"requests": len(latencies), "per_s": len(latencies) / wall if wall else 0.0,
            "p50_ms": 1e3 * statistics.median(ordered) if ordered else None,
            "p99_ms": 1e3 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
            if ordered else None, "errors": errors, "busy": busy}


async def load(url: str, count: int, clients: int, send: Callable[[httpx.AsyncClient], Any]) \
        -> dict[str, Any]:
    """`count` requests from `clients` concurrent clients; latency of each 200."""
    latencies: list[float] = []
    errors = busy = 0
    left = count
    deadline = time.perf_counter() + LEVEL_CAP_S

    async def client(c: httpx.AsyncClient) -> None:
        nonlocal left, errors, busy
        while left > 0 and time.perf_counter() < deadline:
            left -= 1
            start = time.perf_counter()
            answer = await send(c)
            if answer.status_code == 200:
                latencies.append(time.perf_counter() - start)
            elif answer.status_code == 503:
                busy += 1
            else:
                errors += 1

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=url, timeout=300.0, limits=limits) as c:
        started = time.perf_counter()
        await asyncio.gather(*(client(c) for _ in range(clients)))
        wall = time.perf_counter() - started
    return summary(latencies, wall, errors, busy)


def in_process(count: int, call: Callable[[], Any]) -> dict[str, Any]:
    call()  # warm-up
    latencies = []
    started = time.perf_counter()
    for _ in range(count):
        t = time.perf_counter()
        call()
        latencies.append(time.perf_counter() - t)
    return summary(latencies, time.perf_counter() - started, 0, 0)


def paired_checks(url: str, body: Any, call: Callable[[], Any], count: int) -> dict[str, Any]:
    """The service's overhead per check: `count` pairs of one in-process check and one
    request, taken in turn (so the machine's load falls on both alike); the p50 of each and
    of their difference."""
    local, remote = [], []
    with httpx.Client(base_url=url, timeout=60.0) as c:
        for _ in range(count):
            t0 = time.perf_counter()
            call()
            t1 = time.perf_counter()
            c.post("/v1/check", json=body).raise_for_status()
            t2 = time.perf_counter()
            local.append(t1 - t0)
            remote.append(t2 - t1)
    return {"pairs": count, "in_process_p50_ms": 1e3 * statistics.median(local),
            "service_p50_ms": 1e3 * statistics.median(remote),
            "overhead_p50_ms": 1e3 * statistics.median(r - t for r, t in zip(remote, local,
                                                                             strict=True))}


def in_process_calls(poses: np.ndarray) -> dict[str, Callable[[], Any]]:
    import argparse as ap

    from constraints.core.scenario_io import scenario_from_json
    from optimizer.batch import BatchJudge
    from optimizer.cli.check import check_answer
    from optimizer.cli.search import solve_answer

    scenario = scenario_from_json(example("spears"))
    move = example("spears_march")
    judge = BatchJudge(scenario, "spears", "march")

    def solve() -> Any:
        args = ap.Namespace(unit="spears", manoeuvre="march", target=None, face=None,
                            forward=True, front=False, facing=None, time_limit=60.0,
                            effort=None, max_wheels=3, tolerance=0.01, avoid=None,
                            whole_process=False, called_at=time.monotonic())
        return solve_answer(args, scenario).to_json()

    return {"check": lambda: check_answer(scenario, move, source="$.move").to_json(),
            "solve": solve,
            "mask": lambda: judge.mask(poses[:, :2], poses[:, 2], files=poses[:, 3])}


def run(args: argparse.Namespace) -> dict[str, Any]:
    server, url = start_server(args.workers)
    poses = poses_about_spears(args.poses)
    try:
        key = httpx.post(f"{url}/v1/scenarios", json=example("spears")).json()["id"]
        check_body = {"scenario_id": key, "move": example("spears_march")}
        solve_body = {"scenario_id": key, "unit": "spears", "manoeuvre": "march",
                      "objective": {"name": "forward"}, "time_limit": 60}
        mask_bytes = poses.astype("<f8").tobytes()
        mask_query = {"scenario_id": key, "unit": "spears", "manoeuvre": "march"}
        sends = {
            "check": lambda c: c.post("/v1/check", json=check_body),
            "solve": lambda c: c.post("/v1/solve", json=solve_body),
            "mask": lambda c: c.post("/v1/mask", content=mask_bytes, params=mask_query,
                                     headers={"Content-Type": "application/octet-stream"}),
        }
        counts = {"check": args.checks, "solve": args.solves, "mask": args.masks}
        for name, send in sends.items():  # warm-up: a fifth of the load at every level
            for clients in LEVELS:
                asyncio.run(load(url, max(counts[name] // 5, 2 * clients), clients, send))
        rss_warm = rss_mib(server.pid)
        service: dict[str, Any] = {}
        rss_series: list[int] = []  # after each call and level
        for name, send in sends.items():
            for clients in LEVELS:
                service[f"{name}@{clients}"] = asyncio.run(load(url, counts[name], clients,
                                                                send))
                rss_series.append(round(rss_mib(server.pid)))
        rss_end = rss_mib(server.pid)
        calls = in_process_calls(poses)
        paired = paired_checks(url, check_body, calls["check"], args.checks // 4)
    finally:
        server.terminate()
        server.wait(timeout=30)
    local = {name: in_process(max(3, counts[name] // 4), call) for name, call in calls.items()}
    return {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "python": platform.python_version(), "cpus": os.cpu_count(),
            "load": os.getloadavg(), "workers": args.workers, "poses": args.poses,
            "service": service, "in_process": local,
            "check_overhead_p50_ms": paired["overhead_p50_ms"], "paired_checks": paired,
            "mask_poses_per_s": {k: v["per_s"] * args.poses for k, v in service.items()
                                 if k.startswith("mask")},
            "mask_poses_per_s_in_process": local["mask"]["per_s"] * args.poses,
            "rss_mib": {"after_warm_up": rss_warm, "end": rss_end, "series": rss_series}}


def solver(body: dict[str, Any]) -> Callable[[httpx.AsyncClient], Any]:
    return lambda c: c.post("/v1/solve", json=body)


def pools(args: argparse.Namespace) -> dict[str, Any]:
    """Solves per second with the searches in threads and in processes: two servers, the
    levels taken in turn on each (so the machine's load falls on both alike)."""
    procs: list[subprocess.Popen[bytes]] = []
    sends: dict[str, tuple[str, Callable[[httpx.AsyncClient], Any]]] = {}
    try:
        for mode in ("threads", "processes"):
            proc, url = start_server(args.workers, mode == "processes")
            procs.append(proc)
            key = httpx.post(f"{url}/v1/scenarios", json=example("spears")).json()["id"]
            sends[mode] = (url, solver({"scenario_id": key, "unit": "spears",
                                        "manoeuvre": "march", "time_limit": 60,
                                        "objective": {"name": "forward"}}))
            asyncio.run(load(url, 2 * args.workers, args.workers, sends[mode][1]))  # warm
        out: dict[str, Any] = {}
        for clients in LEVELS:
            for mode, (url, send) in sends.items():
                out[f"{mode}@{clients}"] = asyncio.run(load(url, args.solves, clients, send))
        return out
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=30)


def table(out: dict[str, Any]) -> str:
    rows = ["| call | clients | requests | req/s | p50 ms | p99 ms | errors | busy (503) |",
            "|---|---|---|---|---|---|---|---|"]
    for key, s in out["service"].items():
        name, clients = key.split("@")
        rows.append(f"| {name} | {clients} | {s['requests']} | {s['per_s']:.1f} | "
                    f"{s['p50_ms']:.2f} | {s['p99_ms']:.2f} | {s['errors']} | {s['busy']} |")
    for name, s in out["in_process"].items():
        rows.append(f"| {name} in-process | 1 | {s['requests']} | {s['per_s']:.1f} | "
                    f"{s['p50_ms']:.2f} | {s['p99_ms']:.2f} | - | - |")
    rows.append("")
    paired = out["paired_checks"]
    rows.append(f"check overhead over in-process ({paired['pairs']} pairs in turn, p50 of "
                f"the differences): {out['check_overhead_p50_ms']:.2f} ms (service "
                f"{paired['service_p50_ms']:.2f} ms, in-process "
                f"{paired['in_process_p50_ms']:.2f} ms)")
    rows.append("binary mask poses/s: " + ", ".join(
        f"{k.split('@')[1]} clients {v / 1e6:.2f} M" for k, v in out["mask_poses_per_s"].items())
        + f"; in-process {out['mask_poses_per_s_in_process'] / 1e6:.2f} M")
    rows.append(f"server RSS: {out['rss_mib']['after_warm_up']:.0f} MiB after warm-up, "
                f"{out['rss_mib']['end']:.0f} MiB at the end (after each call and level: "
                f"{out['rss_mib']['series']})")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checks", type=int, default=2000)
    parser.add_argument("--solves", type=int, default=60)
    parser.add_argument("--masks", type=int, default=30)
    parser.add_argument("--poses", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pools", action="store_true",
                        help="only compare solves in threads and in processes")
    parser.add_argument("--json", metavar="OUT")
    args = parser.parse_args()
    if args.pools:
        out = {"pools": pools(args), "workers": args.workers, "load": os.getloadavg()}
        print("| searches in | clients | solves | solves/s | p50 ms | p99 ms | errors |")
        print("|---|---|---|---|---|---|---|")
        for key, v in out["pools"].items():
            mode, clients = key.split("@")
            print(f"| {mode} | {clients} | {v['requests']} | {v['per_s']:.1f} | "
                  f"{v['p50_ms']:.0f} | {v['p99_ms']:.0f} | {v['errors']} |")
    else:
        out = run(args)
        print(table(out))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
