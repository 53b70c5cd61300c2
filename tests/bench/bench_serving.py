"""Serving measurement benchmark (issues 14, 23): open-loop rate keeping and timing accuracy of
the whole ``atlas infer`` command against the loopback stub (``tests/stub_server.py``) in its own
process, with the CPU each side used and the load average of the machine.

1. Open loop on near-instant answers: constant arrivals at 500 to 4,000 req/s (``RATES``) for
   ``WINDOW_S`` seconds each after 0.5 s of warm-up. Target: achieved send rate within 1 % of the
   offered rate and schedule lag p99 <= 5 ms.
2. Accuracy with 200 ms to the first token and 10 ms between 8 tokens injected, closed loop at
   concurrency 32 to 256 (the main pass) and open loop at 1,000 and 2,000 req/s: the client's TTFT
   p50/p99 against the stub's own timestamps (request read -> first token written) must agree
   within 5 ms, ITL p50 within 1 ms. Requests are paired with the stub's records by their
   unique prompt.

Client and stub share the machine's cores: the ``client cores`` and ``stub cores`` columns (CPU
seconds over the command's wall seconds) and the core count show where the physics stops the
target. Each open-loop figure is the better of ``RUNS`` runs (by lag p99); ``load`` is the
1-minute load average before it. Run from the project root:
``.venv/bin/python tests/bench/bench_serving.py`` (``--quick``: one rate, one concurrency).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_common import Command, Stub, infer, journal, ms, project, serving, write_params  # noqa: E402

RATES = (500, 1000, 2000, 3000, 4000)
CONCURRENCIES = (32, 64, 128, 256)
OPEN_RATES = (1000, 2000)
WINDOW_S = 3.0
ROWS = 3000
RUNS = 2


def _cpu(command: Command) -> str:
    return f"{command.client_cores:.2f} | {command.stub_cores:.2f} | {command.load:.1f}"


def rate_keeping(root: Path, rates: tuple[int, ...]) -> None:
    print(
        f"\nopen loop, near-instant answers (constant arrivals, {WINDOW_S:g} s per rate after "
        f"0.5 s warm-up; {os.cpu_count()} cores shared by client and stub)"
    )
    print(
        "| offered req/s | sent | achieved req/s | error | lag p50 ms | lag p99 ms | lag max ms | "
        "failed | holds | client cores | stub cores | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with Stub("--delay", "0", "--chunks", "4") as stub:
        for rate in rates:
            load = {
                "mode": "rate",
                "rates": [rate],
                "arrival": "constant",
                "duration_s": WINDOW_S,
                "warmup_s": 0.5,
            }
            write_params(root, stub.url, {"perf": True, "limit": 10, "load": load})
            runs = []
            for _ in range(RUNS):
                command = infer(root, stub)
                runs.append((serving(root)["rate"][f"{rate:g}"], command))
            level, command = min(runs, key=lambda run: run[0]["schedule_lag_s"]["p99"])
            achieved, lag = level["achieved_rate"], level["schedule_lag_s"]
            error = achieved / rate - 1
            holds = abs(error) <= 0.01 and lag["p99"] <= 0.005
            print(
                f"| {rate} | {level['requests']} | {achieved:.1f} | {error:+.2%} | "
                f"{ms(lag['p50'])} | {ms(lag['p99'])} | {ms(lag['max'])} | "
                f"{level['requests_failed']} | {'yes' if holds else 'NO'} | {_cpu(command)} |",
                flush=True,
            )


def _stub_times(url: str) -> dict[str, dict[str, Any]]:
    with urllib.request.urlopen(f"{url}/stub/times", timeout=30) as response:
        times = json.loads(response.read())
    seen: dict[str, list[dict[str, Any]]] = {}
    for entry in times:
        seen.setdefault(entry["content"], []).append(entry)
    return {content: entries[0] for content, entries in seen.items() if len(entries) == 1}


def _compare(
    label: str, records: list[dict[str, Any]], stub: dict[str, dict[str, Any]], command: Command
) -> None:
    client_ttft, stub_ttft, deltas, client_gaps, stub_gaps = [], [], [], [], []
    for record in records:
        entry = stub.get(f"Ping {int(record['id'].split('-')[1])}.")
        if entry is None or record.get("error") or not record.get("token_s"):
            continue
        truth = entry["tokens"][0] - entry["received"]
        client_ttft.append(record["ttft_s"])
        stub_ttft.append(truth)
        deltas.append(record["ttft_s"] - truth)
        tokens = record["token_s"]
        client_gaps += [b - a for a, b in zip(tokens, tokens[1:], strict=False)]
        stub_gaps += [b - a for a, b in zip(entry["tokens"], entry["tokens"][1:], strict=False)]

    def q(values: list[float], p: int) -> float:
        return statistics.quantiles(values, n=100, method="inclusive")[p - 1]

    ttft = [(q(client_ttft, p), q(stub_ttft, p)) for p in (50, 99)]
    itl = (statistics.median(client_gaps), statistics.median(stub_gaps))
    off = [c - s for c, s in ttft]
    holds = all(abs(d) <= 0.005 for d in off) and abs(itl[0] - itl[1]) <= 0.001
    print(
        f"| {label} | {len(deltas)} | {ms(ttft[0][0])} / {ms(ttft[0][1])} | "
        f"{ms(ttft[1][0])} / {ms(ttft[1][1])} | {ms(off[1])} | "
        f"{ms(q(deltas, 50))} / {ms(q(deltas, 99))} | "
        f"{ms(itl[0])} / {ms(itl[1])} | {'yes' if holds else 'NO'} | {_cpu(command)} |",
        flush=True,
    )


def accuracy(root: Path, concurrencies: tuple[int, ...], rates: tuple[int, ...]) -> None:
    print("\naccuracy, 200 ms TTFT and 10 ms/token (8 tokens) injected (client / stub, ms)")
    print(
        "| pass | paired | TTFT p50 | TTFT p99 | p99 off by | per-request diff p50 / p99 | "
        "ITL p50 | holds | client cores | stub cores | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with Stub("--delay", "0.2", "--gap", "0.01", "--chunks", "8", "--record-times") as stub:
        for concurrency in concurrencies:
            requests = 2200 if concurrency >= 128 else 1100
            write_params(root, stub.url, {"limit": requests, "concurrency": concurrency})
            _stub_times(stub.url)  # forget earlier answers
            command = infer(root, stub)
            records = journal(root / "results/bench/responses.jsonl")
            _compare(f"closed loop C={concurrency}", records, _stub_times(stub.url), command)
        for rate in rates:
            # The same 2,200 prompts journaled first by a closed-loop main pass, then the level
            # alone (2,000 measured after 200 warm-up): each prompt once, paired one to one.
            workload: dict[str, Any] = {"perf": True, "limit": 2200, "concurrency": 256}
            write_params(root, stub.url, workload)
            infer(root, stub)
            load = {
                "mode": "rate",
                "rates": [rate],
                "arrival": "constant",
                "requests": 2000,
                "warmup_requests": 200,
            }
            write_params(root, stub.url, {**workload, "load": load})
            _stub_times(stub.url)
            command = infer(root, stub, fresh=False)
            level = journal(root / f"results/bench/load/rate-{rate}.jsonl")
            measured = [r for r in level if r["phase"] == "measure"]
            _compare(f"open loop {rate:,} req/s", measured, _stub_times(stub.url), command)


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    root = Path(tempfile.mkdtemp(prefix="bench-serving-"))
    try:
        project(root, ROWS)
        rate_keeping(root, (2000,) if quick else RATES)
        accuracy(root, (128,) if quick else CONCURRENCIES, () if quick else OPEN_RATES)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
