"""What the embedded model's greedy outputs depend on (issue 11; docs/engine.md, "What changes
an output").

Starts the embedded server (real SmolLM2 GGUF) once per configuration and sends the same 14
prompts — 6 maths, 6 shared-prefix handbook prompts from two groups (long common prefixes, so the
server reuses its KV cache), 2 reasoning — greedy, 48 tokens, then compares every output with the
first configuration byte for byte and prints the wall time and the server's CPU time (with one
thread, CPU time is the kernels' own cost, much less disturbed by other jobs on the machine than
wall time). A warm-up request with a prompt
outside the set precedes each configuration. Not part of ``make bench`` (a few minutes of model
time): ``.venv/bin/python tests/bench/repro_embedded.py [CONFIG ...] [--save F] [--against F]``.
To compare another build of llama-cpp-python (e.g. a native one), install it into a folder with
``pip install --no-deps --target DIR``, run this with ``PYTHONPATH=DIR --against F`` where ``F``
was saved by a run of the project's own build.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from stages.datasets.load import load_dataset  # noqa: E402
from stages.inference.embedded import ENGINE, EngineSettings, embedded_server  # noqa: E402
from stages.inference.requests import Sampling, build_body  # noqa: E402
from stages.params import ModelParams  # noqa: E402

MAX_TOKENS = 48
PICKS = (
    ("eval-math-v1", (0, 1, 2, 3, 4, 5)),
    ("prompts-shared-prefix-v1", (0, 1, 2, 12, 13, 14)),
    ("eval-reasoning-v1", (0, 1)),
)
FORWARD = list(range(14))
SHUFFLED = random.Random(7).sample(FORWARD, len(FORWARD))
# name: (engine settings, send order, concurrency, each prompt twice in a row)
CONFIGS: dict[str, tuple[EngineSettings, list[int], int, bool]] = {
    "forward": (ENGINE, FORWARD, 1, False),
    "reversed": (ENGINE, FORWARD[::-1], 1, False),
    "shuffled-c4": (ENGINE, SHUFFLED, 4, False),
    "threads-1": (replace(ENGINE, n_threads=1, n_threads_batch=1), FORWARD, 1, False),
    "batch-64": (replace(ENGINE, n_batch=64, n_ubatch=64), FORWARD, 1, False),
    "ubatch-128": (replace(ENGINE, n_ubatch=128), FORWARD, 1, False),
    "twice-in-a-row": (ENGINE, FORWARD, 1, True),
}


def prompts(model: ModelParams) -> list[tuple[str, bytes]]:
    sampling = Sampling(model.name, 0.0, 1.0, MAX_TOKENS, seed=0, stream=False)
    out = []
    for dataset_id, picks in PICKS:
        dataset = load_dataset(dataset_id, REPO / "datasets")
        for i in picks:
            row = dataset.rows[i]
            body = build_body(row, dataset.card.kind, dataset.id, dataset.path, sampling, "bench")
            out.append((row["id"], json.dumps(body).encode()))
    return out


def post(url: str, body: bytes) -> str:
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(f"{url}/chat/completions", body, headers)
    with urllib.request.urlopen(request, timeout=900) as response:
        return str(json.loads(response.read())["choices"][0]["message"]["content"])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(model: ModelParams, name: str) -> tuple[list[tuple[str, str]], float, float]:
    engine, order, concurrency, twice = CONFIGS[name]
    items = prompts(model)
    sequence = [items[i] for i in order for _ in range(2 if twice else 1)]
    warm = {"model": model.name, "max_tokens": 4, "temperature": 0.0,
            "messages": [{"role": "user", "content": "Hello there."}]}  # fmt: skip
    with embedded_server(model, engine) as server:
        post(server.url, json.dumps(warm).encode())
        started, cpu = time.perf_counter(), cpu_seconds(server.process.pid)
        with ThreadPoolExecutor(concurrency) as pool:
            futures = [(i, pool.submit(post, server.url, body)) for i, body in sequence]
            outputs = [(i, future.result()) for i, future in futures]
        wall = time.perf_counter() - started
        return outputs, wall, cpu_seconds(server.process.pid) - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="*", help=f"any of {', '.join(CONFIGS)} (default: all)")
    parser.add_argument("--save", type=Path, help="write the first configuration's outputs here")
    parser.add_argument("--against", type=Path, help="compare with outputs saved by --save")
    args = parser.parse_args()
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    model = ModelParams.model_validate(params["model"])
    import llama_cpp

    print(f"llama_cpp from {Path(llama_cpp.__file__).parent}: "
          f"{llama_cpp.llama_print_system_info().decode().strip()}")  # fmt: skip
    names = args.configs or list(CONFIGS)
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        parser.error(f"unknown configuration {unknown[0]!r}")
    baseline: dict[str, str] | None = None
    if args.against:
        baseline = json.loads(args.against.read_text(encoding="utf-8"))
    for name in names:
        outputs, seconds, cpu = run(model, name)
        if baseline is None:
            baseline = dict(outputs)
            if args.save:
                args.save.write_text(json.dumps(baseline, indent=1), encoding="utf-8")
        differ = sorted({i for i, text in outputs if text != baseline[i]})
        print(
            f"{name:<15} {len(outputs):>3} answers in {seconds:6.1f} s (server CPU {cpu:6.1f} s); "
            "differ from the "
            f"baseline: {len(differ)} {differ if differ else ''}",
            flush=True,
        )


if __name__ == "__main__":
    main()
