"""What the embedded engine's greedy outputs depend on, and what slots buy (issues 11, 20):
docs/engine.md, "Reproducibility" and "Throughput".

Starts the embedded llama-server (real GGUF of a model preset) once per configuration and sends
the same 24 eval and serving prompts — 6 maths, 4 reasoning, 4 knowledge, 4 multilingual and 6
shared-prefix handbook prompts from two groups (long common prefixes, so slots reuse their KV
cache) — greedy, 64 tokens, then compares every output with the first configuration byte for
byte and prints the wall time, the server's CPU time and the aggregate output tokens per second
(engine-reported completion tokens over wall time). A warm-up request outside the set precedes
each configuration. Not part of ``make bench`` (minutes of model time): ``make bench-engine``
or ``.venv/bin/python tests/bench/repro_embedded.py [CONFIG ...] [--preset P] [--save F]
[--against F]`` (``--against`` compares with outputs saved by ``--save``, e.g. of another build:
``ATLAS_LLAMA_SERVER=/path/to/llama-server``).
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
from stages.inference.embedded import EngineSettings, embedded_server  # noqa: E402
from stages.inference.requests import Sampling, build_body  # noqa: E402
from stages.params import ModelParams, resolve_model  # noqa: E402

MAX_TOKENS = 64
PICKS = (
    ("eval-math-v1", (0, 1, 2, 3, 4, 5)),
    ("eval-reasoning-v3", (0, 1, 2, 3)),
    ("eval-knowledge-v2", (0, 1, 2, 3)),
    ("eval-multilingual-v2", (0, 1, 2, 3)),
    ("prompts-shared-prefix-v1", (0, 1, 2, 12, 13, 14)),
)
COUNT = sum(len(p) for _, p in PICKS)
FORWARD = list(range(COUNT))
SHUFFLED = random.Random(7).sample(FORWARD, COUNT)
ONE = EngineSettings(slots=1)
# name: (engine settings, send order, concurrency, each prompt twice in a row)
CONFIGS: dict[str, tuple[EngineSettings, list[int], int, bool]] = {
    "s1": (ONE, FORWARD, 1, False),
    "s1-reversed": (ONE, FORWARD[::-1], 1, False),
    "s1-twice": (ONE, FORWARD, 1, True),
    "s2-unified": (replace(ONE, slots=2, kv_unified=True), FORWARD, 2, False),
    "s4-unified": (replace(ONE, slots=4, kv_unified=True), FORWARD, 4, False),
    "s4-unified-shuffled": (replace(ONE, slots=4, kv_unified=True), SHUFFLED, 4, False),
    "s2-split": (replace(ONE, slots=2, kv_unified=False), FORWARD, 2, False),
    "s4-split": (replace(ONE, slots=4, kv_unified=False), FORWARD, 4, False),
    "s4-split-shuffled": (replace(ONE, slots=4, kv_unified=False), SHUFFLED, 4, False),
    "s4-split-ubatch-64": (replace(ONE, slots=4, n_batch=64, n_ubatch=64), FORWARD, 4, False),
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


def post(url: str, body: bytes) -> tuple[str, int]:
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(f"{url}/chat/completions", body, headers)
    with urllib.request.urlopen(request, timeout=900) as response:
        answer = json.loads(response.read())
    tokens = int((answer.get("usage") or {}).get("completion_tokens") or 0)
    return str(answer["choices"][0]["message"]["content"]), tokens


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(model: ModelParams, name: str) -> tuple[list[tuple[str, str]], float, float, int]:
    engine, order, concurrency, twice = CONFIGS[name]
    engine = replace(engine, n_ctx=model.context_length)
    items = prompts(model)
    sequence = [items[i] for i in order for _ in range(2 if twice else 1)]
    warm = {"model": model.name, "max_tokens": 4, "temperature": 0.0,
            "messages": [{"role": "user", "content": "Hello there."}]}  # fmt: skip
    with embedded_server(model, engine) as server:
        post(server.url, json.dumps(warm).encode())
        started, cpu = time.perf_counter(), cpu_seconds(server.process.pid)
        with ThreadPoolExecutor(concurrency) as pool:
            futures = [(i, pool.submit(post, server.url, body)) for i, body in sequence]
            answers = [(i, future.result()) for i, future in futures]
        wall = time.perf_counter() - started
        cpu = cpu_seconds(server.process.pid) - cpu
    tokens = sum(count for _, (_, count) in answers)
    return [(i, text) for i, (text, _) in answers], wall, cpu, tokens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("configs", nargs="*", help=f"any of {', '.join(CONFIGS)} (default: all)")
    parser.add_argument("--preset", help="a key of params.yaml models: (default: model.preset)")
    parser.add_argument("--save", type=Path, help="write the first configuration's outputs here")
    parser.add_argument("--against", type=Path, help="compare with outputs saved by --save")
    parser.add_argument("--out", type=Path, help="write every configuration's outputs here")
    args = parser.parse_args()
    os.chdir(REPO)  # template paths in params.yaml are relative to the project root
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    if args.preset:
        params["model"] = {**params["model"], "preset": args.preset}
    model = ModelParams.model_validate(resolve_model(params))
    names = args.configs or list(CONFIGS)
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        parser.error(f"unknown configuration {unknown[0]!r}")
    print(f"{model.name}: {COUNT} prompts, greedy, {MAX_TOKENS} tokens", flush=True)
    baseline: dict[str, str] | None = None
    if args.against:
        baseline = json.loads(args.against.read_text(encoding="utf-8"))
    for name in names:
        outputs, seconds, cpu, tokens = run(model, name)
        if baseline is None:
            baseline = dict(outputs)
            if args.save:
                args.save.write_text(json.dumps(baseline, indent=1), encoding="utf-8")
        if args.out:
            args.out.mkdir(parents=True, exist_ok=True)
            (args.out / f"{name}.json").write_text(json.dumps(dict(outputs), indent=1))
        differ = sorted({i for i, text in outputs if text != baseline[i]})
        print(
            f"{name:<20} {len(outputs):>3} answers, {tokens:>5} tokens in {seconds:6.1f} s "
            f"({tokens / seconds:6.1f} tokens/s; server CPU {cpu:6.1f} s); differ from the "
            f"baseline: {len(differ)} {differ if differ else ''}",
            flush=True,
        )


if __name__ == "__main__":
    main()
