"""The embedded model: GGUF facts, revision check, and one real end-to-end run on 3 items."""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import struct
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from infer_helpers import GEN

from stages.errors import AtlasError
from stages.inference import gguf
from stages.inference.embedded import ENGINE, embedded_server, find_gguf
from stages.inference.engine import built_isa, cpu_isa
from stages.params import ModelParams

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}"


def _s(text: str) -> bytes:
    data = text.encode()
    return struct.pack("<Q", len(data)) + data


def _tiny_gguf(path: Path) -> None:
    kvs = [
        _s("general.name") + struct.pack("<I", 8) + _s("tiny"),
        _s("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 2) + _s("a") + _s("bc"),
        _s("tokenizer.ggml.scores") + struct.pack("<IIQ", 9, 6, 2) + struct.pack("<ff", 0.5, 1.0),
        _s("general.alignment") + struct.pack("<II", 4, 32),
        _s("tokenizer.chat_template") + struct.pack("<I", 8) + _s(TEMPLATE),
    ]
    path.write_bytes(b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + b"".join(kvs))


def test_chat_template_is_read_from_gguf_metadata(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    _tiny_gguf(path)
    assert gguf.read_metadata_string(path, "tokenizer.chat_template") == TEMPLATE
    assert gguf.read_metadata_string(path, "general.name") == "tiny"
    assert gguf.read_metadata_string(path, "missing.key") is None


def test_not_a_gguf_file_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "m.gguf"
    path.write_bytes(b"NOPE" + b"\x00" * 40)
    with pytest.raises(AtlasError, match="not a GGUF"):
        gguf.read_metadata_string(path, "tokenizer.chat_template")


def test_gguf_facts_are_cached_by_path_size_and_mtime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, cache = tmp_path / "m.gguf", tmp_path / "cache" / "gguf.json"
    _tiny_gguf(path)
    hashed: list[Path] = []
    real = gguf.sha256_file
    monkeypatch.setattr(gguf, "sha256_file", lambda p: hashed.append(p) or real(p))
    first = gguf.gguf_facts(path, cache)
    second = gguf.gguf_facts(path, cache)
    assert (
        first == second == gguf.GgufFacts(hashlib.sha256(path.read_bytes()).hexdigest(), TEMPLATE)
    )
    assert hashed == [path]
    path.write_bytes(path.read_bytes() + b"\x00")  # size changes: hashed again
    assert gguf.gguf_facts(path, cache).sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    assert len(hashed) == 2


def test_isa_facts_from_llama_system_info_and_cpuinfo(tmp_path: Path) -> None:
    info = "CPU : SSE3 = 1 | SSSE3 = 1 | AVX = 1 | AVX2 = 1 | F16C = 1 | FMA = 1 | OPENMP = 1 | "
    assert built_isa(info) == ["AVX", "AVX2", "F16C", "FMA", "OPENMP", "SSE3", "SSSE3"]
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor : 0\nflags : fpu pni ssse3 fma avx avx2 avx512f avx512bw\n")
    assert cpu_isa(cpuinfo) == ["SSE3", "SSSE3", "AVX", "AVX2", "FMA", "AVX512F", "AVX512BW"]
    assert cpu_isa(tmp_path / "absent") == []


def test_wrong_revision_is_refused_before_the_server_starts() -> None:
    model = ModelParams(base_url="embedded", name="smol", revision="0" * 64)
    with pytest.raises(AtlasError, match="is not the sha256 of"), embedded_server(model):
        pytest.fail("the server must not start")


@pytest.mark.embedded
def test_embedded_model_end_to_end_on_three_items(tmp_path: Path) -> None:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["run"]["limit"] = 3
    params["workloads"] = {"math": {"dataset": "eval-math-v1", "max_tokens": 16}}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    shutil.copytree(REPO / "datasets" / "eval-math-v1", tmp_path / "datasets" / "eval-math-v1")
    done = subprocess.run(
        [sys.executable, "-c", "from stages.cli import app; app()", "infer", "math"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = (tmp_path / "results" / "math" / "responses.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert sorted(r["id"] for r in records) == ["math-0001", "math-0002", "math-0003"]
    assert all(r["error"] is None and r["output"].strip() for r in records)
    manifest = json.loads((tmp_path / "results" / "math" / "manifest.json").read_text())
    sha = hashlib.sha256(find_gguf().read_bytes()).hexdigest()
    assert manifest["model"]["revision"] == sha == params["model"]["revision"]
    [template] = manifest["chat_templates"].values()
    assert "<|im_start|>" in template
    assert manifest["counts"]["ok"] == 3


def _embedded_project(root: Path, workloads: dict[str, dict[str, object]]) -> dict[str, object]:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["run"]["limit"] = None
    params["workloads"] = workloads
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    return params


def _outputs(root: Path, workload: str) -> dict[str, str]:
    lines = (root / "results" / workload / "responses.jsonl").read_text().splitlines()
    return {r["id"]: r["output"] for r in map(json.loads, lines) if r["error"] is None}


@pytest.mark.embedded
def test_embedded_outputs_do_not_depend_on_order_or_concurrency(tmp_path: Path) -> None:
    """Four prompts of one shared-prefix group (long common prefixes: the server reuses the
    previous request's KV cache) plus two unrelated ones, sent forward at concurrency 1, in
    reverse at concurrency 1 and forward at concurrency 4: the greedy outputs are identical."""
    rows = [json.loads(line) for line in (REPO / "datasets" / "prompts-shared-prefix-v1" /
            "rows.jsonl").read_text().splitlines()]  # fmt: skip
    mix = [json.loads(line) for line in (REPO / "datasets" / "prompts-mix-v1" / "rows.jsonl")
           .read_text().splitlines()]  # fmt: skip
    chosen = rows[:4] + [r for r in mix if r["bucket"] == "xs"][:2]
    for dataset_id, ordered in (("prompts-fwd-v1", chosen), ("prompts-rev-v1", chosen[::-1])):
        GEN.write_dataset(
            tmp_path / "datasets" / dataset_id, dataset_id=dataset_id, kind="prompts",
            description="order test", generator_path="_gen/none.py", seed=1,
            default_scorer=None, created="2026-01-01", rows=ordered,
        )  # fmt: skip
    _embedded_project(tmp_path, {
        "fwd": {"dataset": "prompts-fwd-v1", "max_tokens": 24, "concurrency": 1},
        "rev": {"dataset": "prompts-rev-v1", "max_tokens": 24, "concurrency": 1},
        "fwd4": {"dataset": "prompts-fwd-v1", "max_tokens": 24, "concurrency": 4},
    })  # fmt: skip
    for workload in ("fwd", "rev", "fwd4"):
        done = subprocess.run(
            [sys.executable, "-c", "from stages.cli import app; app()", "infer", workload],
            cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    forward = _outputs(tmp_path, "fwd")
    assert len(forward) == 6 and all(text.strip() for text in forward.values())
    assert _outputs(tmp_path, "rev") == forward
    assert _outputs(tmp_path, "fwd4") == forward
    manifest = json.loads((tmp_path / "results" / "fwd4" / "manifest.json").read_text())
    engine = manifest["engine"]
    assert engine["llama_cpp_python"] == metadata.version("llama_cpp_python")
    assert (engine["n_threads"], engine["n_threads_batch"]) == (ENGINE.n_threads,) * 2
    assert (engine["n_batch"], engine["n_ubatch"]) == (ENGINE.n_batch, ENGINE.n_ubatch)
    assert engine["isa_built"] == built_isa(engine["system_info"])
    if platform.machine() == "x86_64":  # the Makefile's x86-64-v3 build: AVX2, no AVX-512
        assert {"AVX", "AVX2", "BMI2", "F16C", "FMA"} <= set(engine["isa_built"])
        assert not [isa for isa in engine["isa_built"] if isa.startswith("AVX512")]
    assert engine["isa_cpu"] == cpu_isa()
    assert len(engine["kernels_sha256"]) == 64
    [entry] = manifest["provenance"]
    assert entry["engine"] == engine["id"] and entry["records"] == 6
    assert entry["endpoint"] == "embedded:SmolLM2-135M-Instruct.Q4_1.gguf"
