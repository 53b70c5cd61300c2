"""Strict params.yaml and study files (issue 24): every typo the probe ran silently is an error
naming the file, the line and the key path, with exit code 2, before anything runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from stages.cli import main
from stages.errors import AtlasError
from stages.params import ModelParams, RunParams, load_params, model_params, section, workload

REPO = Path(__file__).resolve().parents[1]
BASE = """\
model:
  base_url: http://127.0.0.1:9/v1
  name: m
  revision: r1
run:
  concurrency: 2
workloads:
  w:
    dataset: eval-x-v1
"""


def _error(text: str, tmp_path: Path) -> str:
    path = tmp_path / "params.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AtlasError) as caught:
        load_params(path)
    return str(caught.value).replace(str(tmp_path) + "/", "")


def test_unknown_top_level_section_with_did_you_mean(tmp_path: Path) -> None:
    text = BASE + "runn:\n  limit: 3\n"
    assert _error(text, tmp_path) == "params.yaml:10: runn: unknown key (did you mean 'run'?)"


def test_unknown_key_without_a_near_miss_lists_the_allowed_ones(tmp_path: Path) -> None:
    text = BASE.replace("  concurrency: 2\n", "  concurrency: 2\n  colour: red\n")
    assert _error(text, tmp_path) == (
        "params.yaml:7: run.colour: unknown key (allowed: concurrency, connect_timeout_s, "
        "first_byte_timeout_s, limit, max_answer_bytes, max_failed_share, max_retries, senders, "
        "stall_timeout_s, sweep, timeout_s)"
    )


def test_duplicate_key_names_both_lines(tmp_path: Path) -> None:
    text = BASE.replace("  concurrency: 2\n", "  concurrency: 2\n  concurrency: 8\n")
    assert _error(text, tmp_path) == (
        "params.yaml:7: run.concurrency: given twice (first at line 6); YAML would silently "
        "keep only the second: remove one"
    )


def test_bool_is_not_an_integer(tmp_path: Path) -> None:
    text = BASE.replace("concurrency: 2", "concurrency: true")
    assert _error(text, tmp_path) == (
        "params.yaml:6: run.concurrency: expected an integer, got true (a boolean)"
    )


def test_empty_model_name(tmp_path: Path) -> None:
    text = BASE.replace("name: m", 'name: ""')
    assert _error(text, tmp_path) == "params.yaml:3: model.name: must not be empty"


def test_number_where_a_string_belongs(tmp_path: Path) -> None:
    text = BASE.replace("revision: r1", "revision: 20240101")
    assert _error(text, tmp_path) == (
        "params.yaml:4: model.revision: expected a string (quote it), got 20240101"
    )


def test_load_spec_typos_by_key_path_and_line(tmp_path: Path) -> None:
    text = BASE + "    load:\n      mode: rate\n      rates: [1, '2']\n      arival: poisson\n"
    assert _error(text, tmp_path) == (
        "params.yaml: 2 problems (nothing was run):\n"
        "  params.yaml:12: workloads.w.load.rates[1]: expected a number, got '2'\n"
        "  params.yaml:13: workloads.w.load.arival: unknown key (did you mean 'arrival'?)"
    )


def test_a_typo_anywhere_stops_a_stage_reading_another_section(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(BASE + "    limt: 3\n", encoding="utf-8")
    with pytest.raises(AtlasError, match=r"params.yaml:10: workloads.w.limt: unknown key"):
        section(RunParams, "run", path)


def test_valid_file_reads_as_before(tmp_path: Path) -> None:
    path = tmp_path / "params.yaml"
    path.write_text(BASE, encoding="utf-8")
    assert section(RunParams, "run", path).concurrency == 2
    assert workload("w", path).dataset == "eval-x-v1"
    assert section(ModelParams, "model", path).name == "m"


def test_http_without_host_is_a_bad_url_not_a_missing_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    text = BASE.replace("http://127.0.0.1:9/v1", "http://").replace(
        "  revision: r1\n", "  revision: r1\n  api_key_env: ATLAS_NO_SUCH_KEY\ndecoding: {}\n"
    )
    (tmp_path / "params.yaml").write_text(text, "utf-8")
    assert main(["infer", "w"]) == 2
    assert capsys.readouterr().err == (
        "atlas: error: params.yaml:2: model.base_url: 'http://' is not a URL: it names no host "
        "(e.g. http://HOST:PORT/v1)\n"
    )


def test_the_real_params_file_passes() -> None:
    assert set(load_params(REPO / "params.yaml")) == {
        "datasets", "check", "model", "models", "decoding", "run", "workloads", "judge",
    }  # fmt: skip


def test_dvc_set_param_overrides_keep_working(tmp_path: Path) -> None:
    """``dvc exp run -S`` rewrites params.yaml with DVC's own YAML writer: the result must load,
    and a key that does not exist must still be refused."""
    from dvc.utils.hydra import apply_overrides

    path = tmp_path / "params.yaml"
    shutil.copy(REPO / "params.yaml", path)
    apply_overrides(path, ["run.concurrency=8", "model.name=other-model", "run.limit=null"])
    assert section(RunParams, "run", path).concurrency == 8
    assert section(RunParams, "run", path).limit is None
    assert model_params(path).name == "other-model"
    apply_overrides(path, ["+run.concurency=2"])
    with pytest.raises(AtlasError, match=r"run.concurency: unknown key \(did you mean"):
        load_params(path)


def test_study_file_is_strict_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from stages.review.study import load_study

    monkeypatch.chdir(tmp_path)
    studies = tmp_path / "review" / "studies"
    studies.mkdir(parents=True)
    good = "seed: 1\nreviewers: [a, b]\ntracks:\n  t:\n    workload: w\n    rubric: identity-0-2\n"
    (studies / "s.yaml").write_text(good, "utf-8")
    assert load_study("s")[0].seed == 1
    cases = {
        good + "seed: 2\n": "review/studies/s.yaml:7: seed: given twice (first at line 1)",
        good.replace("seed: 1", "seed: true"): (
            "review/studies/s.yaml:1: seed: expected an integer, got true (a boolean)"
        ),
        good.replace("rubric:", "rubrik:"): (
            "review/studies/s.yaml: 2 problems (nothing was run):\n"
            "  review/studies/s.yaml:4: tracks.t.rubric: missing (required)\n"
            "  review/studies/s.yaml:6: tracks.t.rubrik: unknown key (did you mean 'rubric'?)"
        ),
    }
    for text, message in cases.items():
        (studies / "s.yaml").write_text(text, "utf-8")
        with pytest.raises(AtlasError) as caught:
            load_study("s")
        assert str(caught.value).startswith(message), caught.value
