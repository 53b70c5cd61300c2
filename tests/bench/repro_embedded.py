"""What the embedded engine's greedy outputs depend on, and what slots buy (issues 11, 20):
docs/engine.md, "What changes an output" and "Throughput".

Starts the embedded llama-server (real GGUF of a model preset) once per configuration, sends one
prompt set greedy, compares every answer byte for byte with the first configuration run with the
same build and settings but slots (list ``s1`` first), and prints the wall time, the server's CPU
time, the aggregate output tokens per second (engine-reported completion tokens over wall time)
and the load average. A warm-up
request outside the set precedes each configuration.

Prompt sets: ``eval`` (default), 24 items of eight default eval workloads (maths, reasoning,
knowledge, multilingual, code, instruction, DROP, tools), each at its workload's ``max_tokens``
from params.yaml; ``short``, 24 eval and shared-prefix prompts (two groups with long common
prefixes, so slots reuse their KV cache) at 64 tokens.

A configuration is named ``s<slots>`` plus options joined by ``-``: ``unified`` (one KV buffer
for all slots), ``fa`` (flash attention), ``nr`` (no weight repacking), ``ub<N>`` (batch and
micro-batch of N tokens), ``nocache`` (no prompt cache), ``rev`` or ``shuf`` (send order),
``twice`` (each prompt twice in a row); ``@NAME`` runs it on the binary given by
``--build NAME=PATH`` instead of the venv's, or sends to the endpoint given by ``--build
NAME=http://HOST:PORT/v1`` (already running, e.g. another engine; only the slot count, as the
number of requests in flight, and the order apply). ``--rounds R`` repeats the list R times,
interleaved, so machine load weighs on every configuration alike; the summary gives medians.

Not part of ``make bench`` (an hour of model time on a loaded 2-core machine): ``make
bench-engine`` or ``.venv/bin/python tests/bench/repro_embedded.py [CONFIG ...] [--set S]
[--preset P] [--build NAME=PATH] [--rounds R] [--save F] [--against F] [--out DIR]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

import yaml  # noqa: E402

from stages.datasets.load import load_dataset  # noqa: E402
from stages.engine.embedded import SERVER_ENV, EngineSettings, embedded_server  # noqa: E402
from stages.inference.requests import Sampling, build_body  # noqa: E402
from stages.params import ModelParams, resolve_model  # noqa: E402

SHORT = (
    ("eval-math-v1", (0, 1, 2, 3, 4, 5)),
    ("eval-reasoning-v3", (0, 1, 2, 3)),
    ("eval-knowledge-v2", (0, 1, 2, 3)),
    ("eval-multilingual-v2", (0, 1, 2, 3)),
    ("prompts-shared-prefix-v1", (0, 1, 2, 12, 13, 14)),
)
SHORT_TOKENS = 64
EVAL = (  # workload names of params.yaml: dataset and max_tokens come from there
    ("math", (0, 1, 2, 3)),
    ("reasoning", (0, 1, 2, 3)),
    ("knowledge", (0, 1, 2)),
    ("multilingual", (0, 1, 2)),
    ("code", (0, 1, 2)),
    ("instruction", (0, 1, 2)),
    ("drop", (0, 1)),
    ("tools", (0, 1)),
)
DEFAULT_BUILD = "default"
OPTIONS = "unified, fa, nr, ub<N>, nocache, rev, shuf, twice, passive, active, spin<N>, t<N>"


@dataclass(frozen=True)
class Config:
    name: str
    engine: EngineSettings
    order: str
    """``forward``, ``rev`` or ``shuf`` (a fixed seeded shuffle)."""
    twice: bool
    build: str

    @property
    def family(self) -> tuple[str, EngineSettings]:
        """What the answers are compared within: the build and every setting but the slots
        and the KV layout (the same single buffer at one slot)."""
        return self.build, replace(self.engine, slots=1, kv_unified=False)


def parse_config(name: str) -> Config:
    """``s4-fa-shuf@off`` -> four slots, flash attention, shuffled order, build ``off``."""
    spec, _, build = name.partition("@")
    head, *options = spec.split("-")
    if not (head.startswith("s") and head[1:].isdigit() and int(head[1:]) >= 1):
        raise ValueError(f"{name!r}: must start with s<slots>, e.g. s4")
    engine, order, twice = EngineSettings(slots=int(head[1:])), "forward", False
    for option in options:
        if option == "unified":
            engine = replace(engine, kv_unified=True)
        elif option == "fa":
            engine = replace(engine, flash_attn=True)
        elif option == "nr":
            engine = replace(engine, repack=False)
        elif option == "nocache":
            engine = replace(engine, cache_prompt=False)
        elif option.startswith("ub") and option[2:].isdigit():
            engine = replace(engine, n_batch=int(option[2:]), n_ubatch=int(option[2:]))
        elif option in ("rev", "shuf"):
            order = option
        elif option == "twice":
            twice = True
        elif option in ("passive", "active"):
            engine = replace(engine, wait_policy=option)
        elif option.startswith("spin") and option[4:].isdigit():
            engine = replace(engine, spin_count=int(option[4:]))
        elif option.startswith("t") and option[1:].isdigit():
            engine = replace(engine, n_threads=int(option[1:]), n_threads_batch=int(option[1:]))
        else:
            raise ValueError(f"{name!r}: unknown option {option!r} (known: {OPTIONS})")
    return Config(name, engine, order, twice, build or DEFAULT_BUILD)


def prompts(params: dict[str, Any], model: ModelParams, which: str) -> list[tuple[str, bytes]]:
    picks = (
        [(dataset, rows, SHORT_TOKENS) for dataset, rows in SHORT]
        if which == "short"
        else [
            (params["workloads"][w]["dataset"], rows, params["workloads"][w]["max_tokens"])
            for w, rows in EVAL
        ]
    )
    out = []
    for dataset_id, rows, max_tokens in picks:
        sampling = Sampling(model.name, 0.0, 1.0, max_tokens, seed=0, stream=False)
        dataset = load_dataset(dataset_id, REPO / "datasets")
        for i in rows:
            row = dataset.rows[i]
            body = build_body(row, dataset.card.kind, dataset.id, dataset.path, sampling, "bench")
            out.append((row["id"], json.dumps(body).encode()))
    return out


def answer_text(message: dict[str, Any]) -> str:
    """Content plus tool calls (name and arguments; the server draws call ids at random)."""
    calls = [
        {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}
        for c in message.get("tool_calls") or []
    ]
    content = str(message.get("content") or "")
    return content if not calls else json.dumps({"content": content, "tool_calls": calls})


def post(url: str, body: bytes) -> tuple[str, int]:
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(f"{url}/chat/completions", body, headers)
    with urllib.request.urlopen(request, timeout=3600) as response:
        answer = json.loads(response.read())
    tokens = int((answer.get("usage") or {}).get("completion_tokens") or 0)
    return answer_text(answer["choices"][0]["message"]), tokens


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def listening_pid(port: int) -> int:
    """The process listening on a loopback TCP port (Linux ``/proc``), for its CPU time."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == "0A":
                inodes.add(f"socket:[{fields[9]}]")
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        with contextlib.suppress(OSError):
            if os.readlink(fd) in inodes:
                return int(fd.parts[2])
    raise SystemExit(f"no process listens on port {port}")


@contextlib.contextmanager
def server_of(
    model: ModelParams, config: Config, builds: dict[str, str]
) -> Iterator[tuple[str, int]]:
    """The OpenAI base URL and server pid of a configuration: a running endpoint
    (``--build NAME=http://…/v1``), else an embedded server started with the configuration's
    settings, on the named build's binary (``ATLAS_LLAMA_SERVER``) or the venv's."""
    target = builds.get(config.build, "")
    if target.startswith("http"):
        yield target.rstrip("/"), listening_pid(urlsplit(target).port or 80)
        return
    engine = replace(config.engine, n_ctx=model.context_length)
    previous = os.environ.get(SERVER_ENV)
    if target:
        os.environ[SERVER_ENV] = target
    try:
        with embedded_server(model, engine) as server:
            yield server.url, server.process.pid
    finally:
        os.environ.pop(SERVER_ENV, None)
        if previous is not None:
            os.environ[SERVER_ENV] = previous


@dataclass(frozen=True)
class Run:
    outputs: dict[str, str]
    wall_s: float
    cpu_s: float
    tokens: int
    load: float


def run(
    model: ModelParams, config: Config, items: list[tuple[str, bytes]], builds: dict[str, str]
) -> Run:
    order = list(range(len(items)))
    if config.order == "rev":
        order.reverse()
    elif config.order == "shuf":
        order = random.Random(7).sample(order, len(order))
    sequence = [items[i] for i in order for _ in range(2 if config.twice else 1)]
    warm = {"model": model.name, "max_tokens": 4, "temperature": 0.0,
            "messages": [{"role": "user", "content": "Hello there."}]}  # fmt: skip
    load = os.getloadavg()[0]
    with server_of(model, config, builds) as (url, pid):
        post(url, json.dumps(warm).encode())
        started, cpu = time.perf_counter(), cpu_seconds(pid)
        pool = ThreadPoolExecutor(config.engine.slots)
        try:
            futures = [(i, pool.submit(post, url, body)) for i, body in sequence]
            answers = [(i, future.result()) for i, future in futures]
        finally:  # on Ctrl-C, drop the queued requests: stopping the server ends the others
            pool.shutdown(wait=False, cancel_futures=True)
        wall = time.perf_counter() - started
        cpu = cpu_seconds(pid) - cpu
    outputs: dict[str, str] = {}
    for i, (text, _) in answers:  # a prompt sent twice must get the same answer both times
        outputs[i] = text if outputs.get(i, text) == text else "<differs between its two sends>"
    tokens = sum(count for _, (_, count) in answers)
    return Run(outputs, wall, cpu, tokens, (load + os.getloadavg()[0]) / 2)


def differing(outputs: dict[str, str], baseline: dict[str, str]) -> list[str]:
    return sorted(i for i, text in outputs.items() if text != baseline[i])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "configs", nargs="*", help=f"s<slots>[-option...][@build]; options: {OPTIONS}"
    )
    parser.add_argument("--set", choices=("eval", "short"), default="eval", help="prompt set")
    parser.add_argument("--preset", help="a key of params.yaml models: (default: model.preset)")
    parser.add_argument(
        "--build", action="append", default=[], metavar="NAME=PATH",
        help="another llama-server binary, for configurations named @NAME",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=1, help="repeat the list, interleaved")
    parser.add_argument("--save", type=Path, help="write the first configuration's outputs here")
    parser.add_argument("--against", type=Path, help="compare with outputs saved by --save")
    parser.add_argument("--out", type=Path, help="write every run's outputs here")
    parser.add_argument(
        "--hog", type=int, default=0, metavar="K",
        help="run K busy loops beside the engine the whole time (a busy machine, issue 32)",
    )  # fmt: skip
    args = parser.parse_args()
    os.chdir(REPO)  # template paths in params.yaml are relative to the project root
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    if args.preset:
        params["model"] = {**params["model"], "preset": args.preset}
    model = ModelParams.model_validate(resolve_model(params))
    builds = dict(b.split("=", 1) for b in args.build)
    try:
        configs = [parse_config(n) for n in args.configs or ["s1", "s2", "s4", "s4-shuf"]]
    except ValueError as exc:
        parser.error(str(exc))
    missing = sorted({c.build for c in configs} - {DEFAULT_BUILD, *builds})
    if missing:
        parser.error(f"no --build {missing[0]}=PATH for @{missing[0]}")
    items = prompts(params, model, args.set)
    print(f"{model.name}: {len(items)} prompts ({args.set}), greedy; {os.cpu_count()} CPUs; "
          f"builds: {builds or 'the venv’s'}", flush=True)  # fmt: skip
    first: dict[str, str] | None = None
    if args.against:
        first = json.loads(args.against.read_text(encoding="utf-8"))
    baselines: dict[tuple[str, EngineSettings], tuple[str, dict[str, str]]] = {}
    runs: dict[str, list[Run]] = {}
    with hogs(args.hog):
        measure(args, model, configs, items, builds, first, baselines, runs)


@contextlib.contextmanager
def hogs(count: int) -> Iterator[None]:
    """``count`` processes that each keep one core busy (a CPU hog), stopped afterwards."""
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    if busy:
        print(f"{count} busy loop(s) running beside the engine", flush=True)
    try:
        yield
    finally:
        for process in busy:
            process.kill()
            process.wait()


def measure(
    args: argparse.Namespace,
    model: ModelParams,
    configs: list[Config],
    items: list[tuple[str, bytes]],
    builds: dict[str, str],
    first: dict[str, str] | None,
    baselines: dict[tuple[str, EngineSettings], tuple[str, dict[str, str]]],
    runs: dict[str, list[Run]],
) -> None:
    """Every configuration, ``args.rounds`` times interleaved, each line printed as it ends."""
    for round_ in range(args.rounds):
        for config in configs:
            result = run(model, config, items, builds)
            runs.setdefault(config.name, []).append(result)
            base_name, baseline = baselines.setdefault(config.family, (config.name, result.outputs))
            if first is None:
                first = result.outputs
                if args.save:
                    args.save.write_text(json.dumps(first, indent=1), encoding="utf-8")
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                path = args.out / f"{config.name}.{round_}.json"
                path.write_text(json.dumps(result.outputs, indent=1), encoding="utf-8")
            same = differing(result.outputs, baseline)
            overall = differing(result.outputs, first)
            print(
                f"{config.name:<22} {result.tokens:>5} tokens in {result.wall_s:7.1f} s "
                f"({result.tokens / result.wall_s:5.2f} tokens/s; server CPU "
                f"{result.cpu_s:7.1f} s; load {result.load:4.1f}); differ from {base_name}: "
                f"{len(same)}/{len(items)}"
                + (f", from the first run: {len(overall)}" if overall != same else "")
                + (f" {same}" if same else ""),
                flush=True,
            )
    if args.rounds > 1:
        print("\nmedians over rounds:")
        for name, results in runs.items():
            rate = statistics.median(r.tokens / r.wall_s for r in results)
            cpu = statistics.median(r.cpu_s for r in results)
            load = statistics.median(r.load for r in results)
            print(f"{name:<22} {rate:5.2f} tokens/s, server CPU {cpu:7.1f} s, load {load:4.1f}")


if __name__ == "__main__":
    main()
