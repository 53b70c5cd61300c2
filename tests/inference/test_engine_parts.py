"""The embedded engine's parts that need no model: server settings, /metrics parsing and the
pass figures, engine-reported timings, chunked GGUFs, model presets (issue 20)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

import pytest

from stages.engine import packaged
from stages.engine.embedded import EngineSettings
from stages.errors import AtlasError
from stages.params import GgufSource, ModelParams, model_params
from stages.protocol.sse import StreamReader, parse_completion
from stages.serving.engine_figures import engine_block, tokens_per_approx
from stages.serving.engine_metrics import DIALECTS
from stages.serving.server_metrics import figures, parse

METRICS = """\
# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed, excluding cached tokens
# TYPE llamacpp:prompt_tokens_total counter
llamacpp:prompt_tokens_total 1200
llamacpp:prompt_tokens_cached_total 300
llamacpp:prompt_seconds_total 2.5
llamacpp:tokens_predicted_total 400
llamacpp:tokens_predicted_seconds_total 8
llamacpp:n_decode_total 100
llamacpp:n_tokens_max 900
llamacpp:n_busy_slots_per_decode 2.5
llamacpp:requests_processing 0
llamacpp:requests_deferred 0
vllm:other_metric 5
"""
KV_NOTE = DIALECTS[-1].notes["kv_cache_usage"]


def test_settings_become_llama_server_flags() -> None:
    split = EngineSettings(n_ctx=8192, slots=4)
    assert split.arguments() == [
        "--ctx-size", "32768", "--parallel", "4", "--no-kv-unified", "--cont-batching",
        "--threads", "2", "--threads-batch", "2", "--batch-size", "512", "--ubatch-size", "512",
        "--flash-attn", "off", "--no-repack", "--cache-prompt", "--cache-ram", "0",
    ]  # fmt: skip
    unified = EngineSettings(n_ctx=4096, slots=2, kv_unified=True).arguments()
    assert unified[:7] == [
        "--ctx-size", "8192", "--parallel", "2", "--kv-unified", "--kv-unified-per-slot", "4096",
    ]  # fmt: skip


def test_prometheus_text_is_parsed_by_name_without_total() -> None:
    values = parse(METRICS)
    assert values is not None
    assert values["llamacpp:prompt_tokens"] == 1200.0
    assert values["llamacpp:n_busy_slots_per_decode"] == 2.5
    assert values["vllm:other_metric"] == 5.0 and len(values) == 11


def _llama_page(values: dict[str, float]) -> dict[str, float]:
    return {f"llamacpp:{name}": value for name, value in values.items()}


def test_pass_figures_are_differences_of_two_scrapes() -> None:
    before = parse(METRICS)
    assert before is not None
    del before["vllm:other_metric"]
    after = {
        **before,
        **_llama_page(
            {
                "prompt_tokens": 2200.0,  # +1000 computed
                "prompt_tokens_cached": 1300.0,  # +1000 from the cache
                "prompt_seconds": 4.5,
                "tokens_predicted": 800.0,
                "tokens_predicted_seconds": 12.0,
                "n_decode": 200.0,  # 100 more decodes with 350 busy slots in all
                "n_busy_slots_per_decode": (250 + 350) / 200,
                "n_tokens_max": 2048.0,
            }
        ),
    }
    samples = [_llama_page({"requests_processing": 4.0, "requests_deferred": 2.0}),
               _llama_page({"requests_processing": 3.0, "requests_deferred": 0.0})]  # fmt: skip
    block = figures(before, after, samples, wall_s=10.0, n_ctx=8192)
    assert block == {
        "prompt_tokens": 1000,
        "prompt_tokens_cached": 1000,
        "tokens_predicted": 400,
        "prompt_tokens_per_s": 100.0,
        "predicted_tokens_per_s": 40.0,
        "prompt_tokens_per_busy_s": 500.0,
        "predicted_tokens_per_busy_s": 100.0,
        "prompt_cache_hit_share": 0.5,
        "decode_calls": 100,
        "busy_slots_per_decode": 3.5,
        "requests_processing": {"max": 4.0, "mean": 3.5},
        "requests_deferred": {"max": 2.0, "mean": 1.0},
        "sequence_tokens_max": 2048,
        "sequence_share_of_slot_max": 0.25,
        "wall_s": 10.0,
        # issue 33: the figures every engine has, beside llama.cpp's own
        "metrics_dialect": "llamacpp",
        "requests_running": {"max": 4.0, "mean": 3.5},
        "requests_waiting": {"max": 2.0, "mean": 1.0},
        "kv_cache_usage": None,
        "prompt_tokens_all": 2000,
        "generation_tokens": 400,
        "prefix_cache_hits": 1000,
        "prefix_cache_queries": 2000,
        "prefix_cache_hit_rate": 0.5,
        "prefix_cache_hit_rate_from": "counters",
        "unavailable": {"kv_cache_usage": KV_NOTE},
    }


def test_timings_are_read_from_the_last_stream_event_and_from_a_body() -> None:
    reader = StreamReader()
    reader.feed(b'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n', 1.0)
    reader.feed(b'data: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":1},'
                b'"timings":{"prompt_n":7,"prompt_ms":12.5,"cache_n":0}}\n\ndata: [DONE]\n\n',
                1.5)  # fmt: skip
    answer = reader.finish()
    assert answer.timings == {"prompt_n": 7, "prompt_ms": 12.5, "cache_n": 0}
    assert answer.usage == {"prompt_tokens": 7, "completion_tokens": 1}
    body = b'{"choices":[{"message":{"content":"x"}}],"timings":{"predicted_n":3}}'
    assert parse_completion(body).timings == {"predicted_n": 3}


def _timed(rid: str, ttft: float, latency: float, timings: dict[str, Any]) -> dict[str, Any]:
    usage = {"prompt_tokens": timings["prompt_n"] + timings["cache_n"], "completion_tokens": 5,
             "prompt_tokens_details": {"cached_tokens": timings["cache_n"]}}  # fmt: skip
    return {"id": rid, "error": None, "ttft_s": ttft, "latency_s": latency, "usage": usage,
            "timings": timings}  # fmt: skip


def test_engine_block_measures_client_minus_server_gaps() -> None:
    records = [
        _timed(
            "a",
            0.25,
            1.0,
            {
                "prompt_n": 90,
                "cache_n": 10,
                "prompt_ms": 200.0,
                "predicted_n": 5,
                "predicted_ms": 700.0,
            },
        ),  # fmt: skip
        _timed(
            "b",
            0.5,
            2.0,
            {
                "prompt_n": 30,
                "cache_n": 70,
                "prompt_ms": 100.0,
                "predicted_n": 5,
                "predicted_ms": 1500.0,
            },
        ),  # fmt: skip
        {"id": "c", "error": {"kind": "timeout"}, "timings": None, "usage": None},
    ]
    block = engine_block(records)
    assert block["timings_reported"] == 2
    assert block["ttft_gap_s"]["n"] == 2 and block["ttft_gap_s"]["mean"] == 0.225  # .05, .4
    assert (block["e2e_gap_s"]["p50"], block["e2e_gap_s"]["mean"]) == (0.25, 0.25)  # .1, .4
    assert block["prompt_s"]["mean"] == 0.15
    assert (block["prompt_tokens_computed"], block["prompt_tokens_cached"]) == (120, 80)
    assert block["prompt_cache_hit_share"] == 0.4
    assert block["usage_cached_tokens_total"] == 80
    assert (block["usage_cached_reported"], block["usage_cached_share"]) == (2, 0.4)  # 80 / 200
    # a usage without prompt_tokens_details (vLLM by default) is unknown, not 0 cached tokens
    silent = {"id": "d", "error": None, "usage": {"prompt_tokens": 100, "completion_tokens": 1}}
    mixed = engine_block([*records, silent])
    assert (mixed["usage_cached_tokens_total"], mixed["usage_cached_reported"]) == (80, 2)
    assert mixed["usage_cached_share"] == 0.4
    assert engine_block([silent])["usage_cached_tokens_total"] is None
    assert tokens_per_approx(records, {"a": 80, "b": 120, "c": 50}) == 1.0
    assert tokens_per_approx(records, {}) is None


def _fake_dist(root: Path, name: str, files: dict[str, bytes]) -> None:
    package = root / name.replace("-", "_")
    package.mkdir(parents=True)
    info = root / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    lines = []
    for file, data in files.items():
        (package / file).write_bytes(data)
        lines.append(f"{package.name}/{file},,")
    (info / "RECORD").write_text("\n".join(lines) + "\n")


def test_chunked_gguf_is_assembled_once_and_verified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    _fake_dist(site, "tiny-part1", {"m.gguf.part00": b"GGUF", "other.txt": b"x"})
    _fake_dist(site, "tiny-part2", {"m.gguf.part01": b"-two"})
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    sha = hashlib.sha256(b"GGUF-two").hexdigest()
    source = GgufSource(file="m.gguf", packages=["tiny-part1", "tiny-part2"])
    model = ModelParams(base_url="embedded", name="t", revision=sha, gguf=source)
    cache = tmp_path / "cache"
    path = packaged.model_file(model, cache)
    assert path == cache / sha[:16] / "m.gguf" and path.read_bytes() == b"GGUF-two"
    assert [p.name for p in path.parent.iterdir()] == ["m.gguf"]  # no temporary left
    wrong = model.model_copy(update={"revision": "0" * 64})
    with pytest.raises(AtlasError, match="is not the sha256 of the concatenated chunks"):
        packaged.model_file(wrong, cache)
    assert not (cache / ("0" * 16) / "m.gguf").exists()
    missing = model.model_copy(update={"gguf": GgufSource(file="m.gguf", packages=["tiny-part2"])})
    with pytest.raises(AtlasError, match=r"no complete m.gguf \(chunks found: m.gguf.part01\)"):
        packaged.model_file(missing, cache)
    absent = model.model_copy(update={"gguf": GgufSource(file="m.gguf", packages=["nope"])})
    with pytest.raises(AtlasError, match="needs the nope wheel"):
        packaged.model_file(absent, cache)


PRESETS = """\
model:
  preset: small
  base_url: embedded
  context_length: 2048
models:
  small:
    name: small-q4
    revision: abc
    gguf: {file: s.gguf, packages: [s-pkg]}
    context_length: 8192
    base_model: true
"""


def test_a_preset_fills_in_what_the_model_block_leaves_out(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(PRESETS)
    model = model_params(path)
    assert (model.preset, model.name, model.revision) == ("small", "small-q4", "abc")
    assert (model.context_length, model.base_model, model.slots) == (2048, True, 4)
    assert model.gguf == GgufSource(file="s.gguf", packages=["s-pkg"])
    path.write_text(PRESETS.replace("preset: small", "preset: large"))
    with pytest.raises(AtlasError, match=r"model.preset: 'large' is not a key of models: \(small"):
        model_params(path)
    path.write_text(PRESETS.replace("    revision: abc\n", ""))
    with pytest.raises(AtlasError, match=r"params.yaml:6: models.small.revision: missing"):
        model_params(path)
