"""The embedded model: GGUF facts, revision check, and one real end-to-end run on 3 items."""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from stages.errors import AtlasError
from stages.inference import gguf
from stages.inference.embedded import embedded_server, find_gguf
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
    assert "<|im_start|>" in manifest["chat_template"]
    assert manifest["counts"]["ok"] == 3
