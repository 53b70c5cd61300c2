"""What the serving benchmarks share: the loopback stub as its own process, a throw-away project
with a published prompts dataset, one timed ``atlas infer`` and the CPU each side used.

CPU per side: the client is the whole ``atlas infer`` command with every process it started and
reaped (``RUSAGE_CHILDREN`` of this script around the command); the stub is read from
``/proc/<pid>/stat`` before and after. Both are CPU seconds over the command's wall seconds, so
``1.0`` is one core busy the whole time. The load average (1 min) is read before each figure:
the machine may be shared, and a figure taken under load says so.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
ATLAS = str(Path(sys.executable).parent / "atlas")
DATASET = "prompts-bench-v1"
_TICK = os.sysconf("SC_CLK_TCK")


def gen_lib() -> Any:
    """``_gen/common/lib.py``, imported as the generators import it (``_gen/`` on the path)."""
    if str(REPO / "_gen") not in sys.path:
        sys.path.insert(0, str(REPO / "_gen"))
    return importlib.import_module("common.lib")


class Stub:
    """``tests/stub_server.py`` in its own process; ``cpu()`` is its CPU seconds so far."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(REPO / "tests" / "stub_server.py"), *args],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        port = int(self.process.stdout.readline().split()[1])
        self.url = f"http://127.0.0.1:{port}/v1"

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK

    def __enter__(self) -> Stub:
        return self

    def __exit__(self, *exc: object) -> None:
        self.process.terminate()
        self.process.wait(10)


def project(root: Path, rows: int) -> None:
    """A project at ``root`` with ``rows`` one-line prompts ``Ping <i>.``, published."""
    lib = gen_lib()
    items = [
        lib.prompt_row(f"b-{i:05d}", "bench", "en", [{"role": "user", "content": f"Ping {i}."}])
        for i in range(rows)
    ]
    lib.write_dataset(
        root / "datasets" / DATASET, dataset_id=DATASET, kind="prompts", description="bench",
        generator_path=f"_gen/{DATASET}.py", seed=1, default_scorer=None, created="2026-01-01",
        rows=items,
    )  # fmt: skip
    from stages.datasets.registry import publish

    publish(DATASET, root / "datasets")


def write_params(
    root: Path, url: str, workload: dict[str, Any], run: dict[str, Any] | None = None
) -> None:
    params = {
        "model": {"base_url": url, "name": "stub", "revision": "bench", "api_key_env": None},
        "decoding": {"temperature": 0.0, "top_p": 1.0, "max_tokens": 16, "seed": 0},
        "run": {"concurrency": 1, "timeout_s": 60, "max_retries": 0, "limit": None, **(run or {})},
        "workloads": {"bench": {"dataset": DATASET, **workload}},
    }
    (root / "params.yaml").write_text(json.dumps(params), encoding="utf-8")


@dataclass
class Command:
    """One timed ``atlas infer bench``."""

    seconds: float
    client_cpu_s: float
    stub_cpu_s: float
    load: float
    """Load average (1 min) just before the command."""
    stderr: str

    @property
    def client_cores(self) -> float:
        return self.client_cpu_s / self.seconds

    @property
    def stub_cores(self) -> float:
        return self.stub_cpu_s / self.seconds


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def infer(root: Path, stub: Stub, fresh: bool = True, check: bool = True) -> Command:
    if fresh:
        shutil.rmtree(root / "results", ignore_errors=True)
    load = os.getloadavg()[0]
    cpu, stub_cpu = _children_cpu(), stub.cpu()
    start = time.perf_counter()
    done = subprocess.run([ATLAS, "infer", "bench"], cwd=root, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    command = Command(seconds, _children_cpu() - cpu, stub.cpu() - stub_cpu, load, done.stderr)
    if check and done.returncode != 0:
        raise SystemExit(f"atlas infer failed: {done.stderr[-2000:]}")
    return command


def serving(root: Path) -> dict[str, Any]:
    return dict(json.loads((root / "metrics" / "bench.serving.json").read_text()))


def journal(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def ms(value: float | None) -> str:
    return "—" if value is None else f"{value * 1000:.2f}"


def wait_quiet(limit: float = 4.0, patience_s: float = 60.0) -> float:
    """Wait (at most ``patience_s``) for the 1-minute load average to drop under ``limit``; the
    load average when done. The machine may be shared: figures say what load they had."""
    deadline = time.monotonic() + patience_s
    while os.getloadavg()[0] > limit and time.monotonic() < deadline:
        time.sleep(2)
    return os.getloadavg()[0]
