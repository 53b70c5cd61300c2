"""The embedded engine (llama.cpp's llama-server, issue 20): GGUF facts, revision check, and real
end-to-end runs of both model presets, with engine usage, timings and server metrics."""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from infer_helpers import GEN

from stages.engine import gguf
from stages.engine.build import built_isa, cpu_isa
from stages.engine.embedded import EngineSettings, embedded_server, server_binary
from stages.engine.packaged import model_file
from stages.errors import AtlasError
from stages.params import ModelParams, model_params, resolve_model

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


def _preset(name: str) -> ModelParams:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    return ModelParams.model_validate(
        resolve_model({**params, "model": {**params["model"], "preset": name}})
    )


def test_wrong_revision_is_refused_before_the_server_starts() -> None:
    model = _preset("smollm2-135m").model_copy(update={"revision": "0" * 64})
    with pytest.raises(AtlasError, match="is not the sha256 of"), embedded_server(model):
        pytest.fail("the server must not start")


def _project(root: Path, workloads: dict[str, dict[str, object]], **model: Any) -> dict[str, Any]:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["run"]["limit"] = None
    # a loaded CI machine (2 cores, other jobs) can take minutes per request: no request may
    # fail on time here, what is tested is the answers
    params["run"]["timeout_s"] = 3600
    params["model"].update(model)
    params["workloads"] = workloads
    (root / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    return params


def _infer(root: Path, workload: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from stages.cli import app; app()", "infer", workload],
        cwd=root, capture_output=True, text=True, timeout=3 * 3600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _records(root: Path, workload: str) -> list[dict[str, Any]]:
    lines = (root / "results" / workload / "responses.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _outputs(root: Path, workload: str) -> dict[str, str]:
    return {r["id"]: r["output"] for r in _records(root, workload) if r["error"] is None}


@pytest.mark.embedded
def test_embedded_model_end_to_end_with_engine_usage_timings_and_server_metrics(
    tmp_path: Path,
) -> None:
    """Three maths items at two slots: every record has the engine's usage and timings, the
    serving file totals them and holds the /metrics figures, the manifest names the build."""
    shutil.copytree(REPO / "datasets" / "eval-math-v1", tmp_path / "datasets" / "eval-math-v1")
    params = _project(tmp_path, {"math": {"dataset": "eval-math-v1", "max_tokens": 16,
                                          "limit": 3, "slots": 2}})  # fmt: skip
    _infer(tmp_path, "math")
    records = _records(tmp_path, "math")
    assert sorted(r["id"] for r in records) == ["math-0001", "math-0002", "math-0003"]
    assert all(r["error"] is None and r["output"].strip() for r in records)
    for r in records:
        assert r["usage"]["prompt_tokens"] == r["timings"]["prompt_n"] + r["timings"]["cache_n"]
        assert r["usage"]["completion_tokens"] == r["timings"]["predicted_n"] >= 1
    manifest = json.loads((tmp_path / "results" / "math" / "manifest.json").read_text())
    sha = hashlib.sha256(model_file(model_params(tmp_path / "params.yaml")).read_bytes())
    assert manifest["model"]["revision"] == sha.hexdigest() == params["models"]["smollm2-135m"][
        "revision"]  # fmt: skip
    [template] = manifest["chat_templates"].values()
    assert "<|im_start|>" in template
    engine = manifest["engine"]
    assert engine["binary_sha256"] == hashlib.sha256(server_binary().read_bytes()).hexdigest()
    assert (engine["slots"], engine["kv_unified"], engine["n_ctx"]) == (2, False, 8192)
    assert (engine["server"], engine["llama_cpp_commit"]) == ("llama-server", "0c1e5709")
    assert engine["isa_built"] == built_isa(engine["system_info"])
    if platform.machine() == "x86_64":  # the Makefile's x86-64-v3 build: AVX2, no AVX-512
        assert {"AVX", "AVX2", "BMI2", "F16C", "FMA"} <= set(engine["isa_built"])
        assert not [isa for isa in engine["isa_built"] if isa.startswith("AVX512")]
    assert engine["isa_cpu"] == cpu_isa()
    [entry] = manifest["provenance"]
    assert (entry["engine"], entry["records"]) == (engine["id"], 3)
    assert entry["endpoint"] == "embedded:SmolLM2-135M-Instruct.Q4_1.gguf"
    serving = json.loads((tmp_path / "metrics" / "math.serving.json").read_text())["main"]
    assert serving["input_tokens_total"] == sum(r["usage"]["prompt_tokens"] for r in records)
    assert serving["usage_reported"] == 3 and serving["engine"]["timings_reported"] == 3
    assert serving["slots"] == 2 and serving["concurrency"] == 2
    server = serving["server"]
    computed = sum(r["timings"]["prompt_n"] for r in records)
    assert server["prompt_tokens"] == computed  # the scrapes bracket exactly this pass
    assert server["tokens_predicted"] == sum(r["usage"]["completion_tokens"] for r in records)
    assert server["requests_deferred"]["max"] is not None
    # issue 33: the figures every engine has, from the same page, agree with the usages
    cached = sum(r["usage"]["prompt_tokens_details"]["cached_tokens"] for r in records)
    assert server["metrics_dialect"] == "llamacpp"
    assert server["prompt_tokens_all"] == serving["input_tokens_total"]
    assert server["generation_tokens"] == server["tokens_predicted"]
    assert server["prefix_cache_hits"] == cached == serving["engine"]["usage_cached_tokens_total"]
    assert server["prefix_cache_hit_rate"] == server["prompt_cache_hit_share"]
    assert server["requests_running"] == server["requests_processing"]


@pytest.mark.embedded
def test_gemma_preset_is_assembled_verified_and_served_with_its_named_template(
    tmp_path: Path,
) -> None:
    """The second model: its four chunks make the GGUF that hashes to the preset's revision, it
    has no template of its own, and the server applies the preset's Gemma turn template, whose
    hash is the records' provenance."""
    gemma = _preset("gemma3-270m")
    assert gemma.base_model and gemma.chat_template is not None
    gguf = model_file(gemma)
    assert hashlib.sha256(gguf.read_bytes()).hexdigest() == gemma.revision
    assert gguf_facts_template(gguf) is None
    shutil.copytree(REPO / "datasets" / "eval-math-v1", tmp_path / "datasets" / "eval-math-v1")
    # the template by absolute path: a stages/ folder in the project would shadow the package
    _project(tmp_path, {"math": {"dataset": "eval-math-v1", "max_tokens": 16, "limit": 2}},
             preset="gemma3-270m", slots=2,
             chat_template=str(REPO / gemma.chat_template))  # fmt: skip
    _infer(tmp_path, "math")
    records = _records(tmp_path, "math")
    assert len(records) == 2 and all(r["error"] is None for r in records)
    assert all(r["usage"]["completion_tokens"] >= 1 for r in records)
    manifest = json.loads((tmp_path / "results" / "math" / "manifest.json").read_text())
    assert manifest["model"] == {"name": "gemma-3-270m-Q4_K_M", "revision": gemma.revision,
                                 "preset": "gemma3-270m", "base_model": True}  # fmt: skip
    text = (REPO / gemma.chat_template).read_text(encoding="utf-8")
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert manifest["chat_templates"] == {digest: text}
    [entry] = manifest["provenance"]
    assert entry["chat_template_sha256"] == digest
    assert entry["endpoint"] == "embedded:gemma-3-270m-q4_k_m.gguf"


def gguf_facts_template(path: Path) -> str | None:
    return gguf.read_metadata_string(path, "tokenizer.chat_template")


@pytest.mark.embedded
def test_greedy_outputs_do_not_depend_on_send_order_or_slot_count(tmp_path: Path) -> None:
    """Four prompts of one shared-prefix group (long common prefixes: a slot reuses its KV
    cache) and two maths items, sent forward and in reverse at one slot and forward at four
    slots, batched (the server says so): byte-identical greedy outputs, the batch invariance
    that lets eval workloads run at four slots (docs/engine.md, "What changes an output"). The
    slot count stays a setting of the engine id, so a run at four slots is another engine."""
    rows = [json.loads(line) for line in (REPO / "datasets" / "prompts-shared-prefix-v1" /
            "rows.jsonl").read_text().splitlines()]  # fmt: skip
    maths = [json.loads(line) for line in (REPO / "datasets" / "eval-math-v1" / "rows.jsonl")
             .read_text().splitlines()][:2]  # fmt: skip
    chosen = rows[:4] + [
        GEN.prompt_row(f"maths-{i:04d}", "maths", "en", [{"role": "user", "content": r["prompt"]}])
        for i, r in enumerate(maths)
    ]
    for dataset_id, ordered in (("prompts-fwd-v1", chosen), ("prompts-rev-v1", chosen[::-1])):
        GEN.write_dataset(
            tmp_path / "datasets" / dataset_id, dataset_id=dataset_id, kind="prompts",
            description="order test", generator_path="_gen/none.py", seed=1,
            default_scorer=None, created="2026-01-01", rows=ordered,
        )  # fmt: skip
    runs = {
        "fwd": {"dataset": "prompts-fwd-v1", "slots": 1},
        "rev": {"dataset": "prompts-rev-v1", "slots": 1},
        "fwd4": {"dataset": "prompts-fwd-v1", "slots": 4},
    }
    _project(tmp_path, {name: {**spec, "max_tokens": 48} for name, spec in runs.items()})
    for workload in runs:
        _infer(tmp_path, workload)
    forward = _outputs(tmp_path, "fwd")
    assert len(forward) == 6 and all(text.strip() for text in forward.values())
    assert _outputs(tmp_path, "rev") == forward
    assert _outputs(tmp_path, "fwd4") == forward
    engines = [json.loads((tmp_path / "results" / w / "manifest.json").read_text())["engine"]
               for w in runs]  # fmt: skip
    assert [e["slots"] for e in engines] == [1, 1, 4]
    assert engines[0]["id"] == engines[1]["id"] != engines[2]["id"]
    serving = json.loads((tmp_path / "metrics" / "fwd4.serving.json").read_text())["main"]
    assert serving["concurrency"] == 4 and serving["server"]["busy_slots_per_decode"] > 1


@pytest.mark.embedded
def test_the_quick_maths_workload_finishes_beside_a_cpu_hog(tmp_path: Path) -> None:
    """Issue 32: the default quick maths workload, with the project's own limits (first byte,
    stall, total deadline), while a busy loop holds one of the machine's cores the whole time:
    every request answers and none times out; the manifest records how the engine's threads
    wait."""
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    math = params["workloads"]["math"]
    dataset = math["dataset"]
    shutil.copytree(REPO / "datasets" / dataset, tmp_path / "datasets" / dataset)
    params["workloads"] = {"math": math}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        _infer(tmp_path, "math")
    finally:
        hog.kill()
        hog.wait()
    records = _records(tmp_path, "math")
    assert len(records) == params["run"]["limit"]
    assert [r["error"] for r in records] == [None] * len(records)
    manifest = json.loads((tmp_path / "results" / "math" / "manifest.json").read_text())
    assert manifest["engine"]["wait_policy"] == EngineSettings().wait_policy
    assert "OPENMP = 1" in manifest["engine"]["system_info"]
