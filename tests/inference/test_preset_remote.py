"""A model preset left on under a remote ``base_url`` (issue 31): the preset fills in every key
the ``model:`` block leaves null, and its revision is the sha256 of its own GGUF file. Without a
``revision`` of its own the run recorded that sha256 as the remote model's revision and exited 0;
now it is refused, naming the fields, before anything is sent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from infer_helpers import eval_row, write_dataset
from stub_server import StubServer

from stages.cli import main
from stages.errors import AtlasError
from stages.params import judge_models, model_params

GGUF_SHA = "b" * 64


def _params(root: Path, base_url: Any, revision: str | None) -> None:
    params = {
        "model": {"preset": "small", "base_url": base_url, "name": None, "revision": revision},
        "models": {
            "small": {"name": "small-q4", "revision": GGUF_SHA,
                      "gguf": {"file": "s.gguf", "packages": ["s-pkg"]}},
        },
        "decoding": {"temperature": 0.0, "max_tokens": 16, "seed": 0},
        "run": {"concurrency": 2, "timeout_s": 5, "max_retries": 0},
        "workloads": {"w": {"dataset": "eval-t-v1"}},
    }  # fmt: skip
    (root / "params.yaml").write_text(yaml.safe_dump(params, sort_keys=False))


def test_a_preset_under_a_remote_url_without_a_revision_is_refused(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    _params(project, stub.url, None)
    assert main(["infer", "w"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "atlas: error: params.yaml: model.revision: missing: model.preset 'small' is on while "
        "model.base_url points at an endpoint (127.0.0.1), and the preset's revision is the "
        "sha256 of its own GGUF file, not the served model's; set model.revision to the served "
        "model's pinned revision, or model.preset to null\n"
    )
    assert stub.stats.requests == 0 and not (project / "results").exists()


def test_a_revision_given_beside_the_preset_is_the_one_recorded(
    project: Path, stub: StubServer
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    _params(project, stub.url, "remote-rev-7")
    assert main(["infer", "w"]) == 0
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    model = manifest["model"]
    assert (model["name"], model["revision"]) == ("small-q4", "remote-rev-7")


def test_every_remote_form_is_covered_and_embedded_keeps_the_preset(project: Path) -> None:
    path = project / "params.yaml"
    for url in (["http://10.0.0.1/v1", "http://10.0.0.2/v1"], [{"url": "https://h.example/v1"}]):
        _params(project, url, None)
        with pytest.raises(AtlasError, match="model.revision: missing: model.preset 'small'"):
            model_params(path)
    _params(project, "embedded", None)
    assert model_params(path).revision == GGUF_SHA  # the preset's own engine: its GGUF's sha256
    params = yaml.safe_load(path.read_text())
    judge = {"preset": "small", "base_url": "http://10.0.0.9/v1"}
    params["judge"] = {"study": "s", "judges": {"j": judge}}
    path.write_text(yaml.safe_dump(params))
    with pytest.raises(AtlasError, match=r"judge\.judges\.j\.revision: missing: judge\.judges\.j"):
        judge_models(path)
