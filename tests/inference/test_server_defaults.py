"""What the server really did (issue 33): reasoning controls in ``decoding``, each engine's neutral
sampling knobs, the server's reported defaults in the manifest and provenance, and the engine's
own token count where a stream drops its usage event."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from infer_helpers import REPO, eval_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.inference.journal import canonical
from stages.inference.plan import plan_workload

KEY = "sk-props-test-0123456789"
CONTROLS = {"reasoning_effort": "high", "thinking_token_budget": 20, "max_completion_tokens": 64}


def _manifest(project: Path) -> dict[str, Any]:
    return json.loads((project / "results" / "w" / "manifest.json").read_text())


def _records(project: Path) -> list[dict[str, Any]]:
    lines = (project / "results" / "w" / "responses.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def _sha(obj: Any) -> str:
    return hashlib.sha256(
        json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()
    ).hexdigest()


def _plan_digest(project: Path) -> tuple[str, str]:
    """The run key and a digest of every request key and body of workload ``w``."""
    plan = plan_workload("w", project / "params.yaml", project / "datasets")
    joined = b"".join(item.key.encode() + item.body for item in plan.items)
    return plan.run_key, hashlib.sha256(joined).hexdigest()


# Computed by house35 (before the reasoning controls and neutral knobs existed) for the project
# _plan_digest builds below: a greedy run and a sampling run against an unidentified endpoint.
HOUSE35 = (
    (
        "39bf78e19e73e6cb2058cf3d6f3c2556757a192c37d1bbf797fc4957917e66c9",
        "79539697e5250e8bc35d492792d56afd54cec3120eb46d5196f51c1c86c331d5",
    ),
    (
        "b5897a37a303ea1ea1ea80e2ab4f5442c03de410b839693fe07ca55d6905d51e",
        "bcd5881d25d237c71d15d84a4445c77b9232fc9a7bf940ef38eab26642fe4a8f",
    ),
)


@pytest.mark.parametrize("explicit_nulls", [False, True])
def test_all_controls_null_keeps_bodies_and_keys_byte_identical(
    project: Path, explicit_nulls: bool
) -> None:
    """Journals written before the controls existed stay valid: with every control null (left
    out, or written as null) the bodies, request keys and run key are those house35 made."""
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    nulls = dict.fromkeys(CONTROLS) if explicit_nulls else {}
    write_params(project, "http://127.0.0.1:9/v1", decoding=nulls)
    greedy = _plan_digest(project)
    write_params(project, "http://127.0.0.1:9/v1", decoding={**nulls, "temperature": 0.7})
    sampling = _plan_digest(project)
    assert (greedy, sampling) == HOUSE35


def test_the_committed_runs_keep_their_run_keys() -> None:
    """Every workload of the project's own params.yaml plans the run key its committed metrics
    were scored under (the embedded engine's greedy bodies gained no field)."""
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    checked = 0
    for name in params["workloads"]:
        path = REPO / "metrics" / f"{name}.json"
        if not path.is_file():
            continue
        committed = (json.loads(path.read_text()).get("signature") or {}).get("run_key")
        if committed is None:
            continue
        plan = plan_workload(name, REPO / "params.yaml", REPO / "datasets")
        assert plan.run_key == committed, name
        assert "neutral_sampling" not in plan.decoding
        checked += 1
    assert checked >= 10


@pytest.mark.parametrize(
    ("owned_by", "budget"),
    [
        (None, "thinking_token_budget"),
        ("vllm", "thinking_token_budget"),
        ("llamacpp", "thinking_budget_tokens"),
        ("sglang", "thinking_budget"),
    ],
)
def test_reasoning_controls_are_sent_keyed_and_recorded(
    project: Path, stub: StubServer, owned_by: str | None, budget: str
) -> None:
    stub.config.owned_by = owned_by
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    plain = _manifest(project)["run_key"]
    sent_before = stub.stats.requests
    write_params(project, stub.url, decoding=CONTROLS)
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == sent_before + 2  # another run key: nothing reused
    body = stub.stats.bodies[-1]
    assert (body["reasoning_effort"], body[budget], body["max_completion_tokens"]) == (
        "high", 20, 64,
    )  # fmt: skip
    assert "max_tokens" not in body  # OpenAI's reasoning models refuse it beside the other
    others = {"thinking_token_budget", "thinking_budget_tokens", "thinking_budget"} - {budget}
    assert not others & set(body)
    manifest = _manifest(project)
    decoding = manifest["decoding"]
    assert {name: decoding[name] for name in CONTROLS} == CONTROLS
    assert manifest["run_key"] != plain
    expected = hashlib.sha256(canonical(["stub-model", "r1", decoding])).hexdigest()
    assert manifest["run_key"] == expected
    assert {r["run_key"] for r in _records(project)[-2:]} == {expected}


@pytest.mark.parametrize(
    ("decoding", "message"),
    [
        ({"reasoning_effort": "maximal"}, "decoding.reasoning_effort: Input should be 'low'"),
        ({"thinking_token_budget": -1}, "decoding.thinking_token_budget: Input should be greater"),
        ({"max_completion_tokens": 0}, "decoding.max_completion_tokens: Input should be greater"),
        ({"reasoning_effort": 2}, "decoding.reasoning_effort: Input should be 'low'"),
        (
            {"thinking_token_budget": 64, "max_completion_tokens": 64},
            "decoding: thinking_token_budget (64) must be below max_completion_tokens (64)",
        ),
        (
            {"thinking_token_budget": 32},
            "decoding: thinking_token_budget (32) must be below max_tokens (32)",
        ),
    ],
)
def test_bad_reasoning_controls_are_one_sentence_errors(
    project: Path, capsys: pytest.CaptureFixture[str], decoding: dict[str, Any], message: str
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, "http://127.0.0.1:9/v1", decoding=decoding)
    capsys.readouterr()
    assert main(["infer", "w", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "params.yaml:" in err and message in err
    assert "Traceback" not in err and not (project / "results").exists()


NEUTRAL_SENT = {
    "vllm": {"repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
             "top_k": -1, "min_p": 0.0},
    "sglang": {"repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
               "top_k": -1, "min_p": 0.0},
    "me": {"repeat_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0, "top_k": 0,
           "min_p": 0.0, "typical_p": 1.0, "tfs_z": 1.0, "mirostat_mode": 0},
    "llamacpp": {"repeat_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
                 "top_k": 0, "min_p": 0.0, "typical_p": 1.0, "top_n_sigma": -1.0,
                 "dry_multiplier": 0.0, "xtc_probability": 0.0, "mirostat": 0,
                 "dynatemp_range": 0.0},
    "openai": {},
}  # fmt: skip
KINDS = {"vllm": "vllm", "sglang": "sglang", "me": "llama-cpp-python", "llamacpp": "llama.cpp",
         "openai": "openai"}  # fmt: skip
KNOBS = {name for knobs in NEUTRAL_SENT.values() for name in knobs}


@pytest.mark.parametrize("owned_by", sorted(NEUTRAL_SENT))
def test_each_identified_engine_gets_its_neutral_sampling_knobs(
    project: Path, stub: StubServer, owned_by: str
) -> None:
    stub.config.owned_by = owned_by
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    expected = NEUTRAL_SENT[owned_by]
    for body in stub.stats.bodies:
        assert {k: v for k, v in body.items() if k in KNOBS} == expected
        assert (body["temperature"], body["top_p"]) == (0.0, 1.0)
    manifest = _manifest(project)
    assert manifest["engine_kind"] == KINDS[owned_by]
    assert manifest["decoding"].get("neutral_sampling", {}) == expected
    assert main(["infer", "w"]) == 0  # the same engine again: every answer reused
    assert stub.stats.requests == 3


def test_llama_cpp_is_known_by_its_props_and_an_unknown_server_gets_no_knob(
    project: Path, stub: StubServer
) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0  # the stub shows nothing about itself
    assert not KNOBS & set(stub.stats.bodies[-1])
    assert _manifest(project)["engine_kind"] is None
    stub.config.props = {"default_generation_settings": {"params": {"top_k": 40}}}
    assert main(["infer", "w"]) == 0
    assert {k: v for k, v in stub.stats.bodies[-1].items() if k in KNOBS} == (
        NEUTRAL_SENT["llamacpp"]
    )
    assert _manifest(project)["engine_kind"] == "llama.cpp"


def test_the_embedded_engine_gets_only_knobs_its_defaults_do_not_neutralise() -> None:
    """Measured defaults of the pinned llama-server (checked on the real server below): only
    top_k 40 and min_p 0.05 are not neutral, and at temperature 0 they cannot change the pick."""
    from stages.protocol.engines import EMBEDDED, fields_for

    assert fields_for(EMBEDDED, 0.0) == {}
    assert fields_for(EMBEDDED, 0.7) == {"top_k": 0, "min_p": 0.0}


LLAMA_DEFAULTS = {"params": {"repeat_penalty": 1.1, "top_k": 40, "min_p": 0.05}, "n_ctx": 4096}


def test_server_defaults_are_recorded_read_with_the_key_and_a_change_resends(
    project: Path,
    stub: StubServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    stub.config.owned_by = "llamacpp"
    stub.config.props = {"default_generation_settings": LLAMA_DEFAULTS}
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    first = _sha(LLAMA_DEFAULTS["params"])
    assert _manifest(project)["server_defaults"] == [{
        "endpoint": stub.url, "engine": "llama.cpp", "source": "/props", "sha256": first,
        "defaults": LLAMA_DEFAULTS["params"],
    }]  # fmt: skip
    assert {r["provenance"]["server_defaults_sha256"] for r in _records(project)} == {first}
    props = [h for path, h in stub.stats.gets if path == "/props"]
    assert props and all(h.get("authorization") == f"Bearer {KEY}" for h in props)
    assert KEY not in (project / "results" / "w" / "manifest.json").read_text()

    changed = {"params": {**LLAMA_DEFAULTS["params"], "repeat_penalty": 1.0}}
    stub.config.props = {"default_generation_settings": changed}
    capsys.readouterr()
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 6
    second = _sha(changed["params"])
    assert (
        f"w: the endpoint changed: 3 answers made under server defaults {first[:12]} "
        f"(the endpoint now reports {second[:12]}); sending them again"
    ) in capsys.readouterr().err
    manifest = _manifest(project)
    assert manifest["counts"]["resent_drifted"] == 3
    assert [e["server_defaults_sha256"] for e in manifest["superseded"]] == [first]

    stub.config.props = None  # defaults unknown now: no answer is taken for drifted
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 6


def test_records_older_than_the_defaults_field_are_reused(project: Path, stub: StubServer) -> None:
    """Journals written before issue 33 carry no defaults hash: whatever the server reports
    now, they are not sent again."""
    stub.config.owned_by = "llamacpp"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    journal = project / "results" / "w" / "responses.jsonl"
    old = []
    for record in _records(project):
        del record["provenance"]["server_defaults_sha256"]
        old.append(json.dumps(record) + "\n")
    journal.write_text("".join(old))
    stub.config.props = {"default_generation_settings": LLAMA_DEFAULTS}
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 3


def test_vllm_reports_its_configuration_at_server_info(project: Path, stub: StubServer) -> None:
    config = "model='m', seed=0, generation_config='auto', override_generation_config={}"
    stub.config.owned_by = "vllm"
    stub.config.server_info = {"vllm_config": config}
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    [entry] = _manifest(project)["server_defaults"]
    assert entry == {
        "endpoint": stub.url, "engine": "vllm", "source": "/server_info",
        "sha256": _sha({"vllm_config": config}), "defaults": {"vllm_config": config},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("timings", "tokens"),
    [
        ({"prompt_n": 5, "prompt_ms": 1.0, "predicted_n": 9, "predicted_ms": 9.0},
         {"total": 27, "from_usage": 0, "from_timings": 3, "from_deltas": 0}),
        (None, {"total": 12, "from_usage": 0, "from_timings": 0, "from_deltas": 3}),
    ],
)  # fmt: skip
def test_a_stream_without_usage_takes_the_engines_own_token_count(
    project: Path, stub: StubServer, timings: dict[str, Any] | None, tokens: dict[str, int]
) -> None:
    """The usage event is asked for, but a proxy may drop it: llama.cpp's ``timings`` still
    say how many tokens it generated (9 here, over 4 deltas); without them, the deltas count."""
    stub.config.omit_usage = True
    stub.config.timings = timings
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 0
    assert all(b["stream_options"] == {"include_usage": True} for b in stub.stats.bodies)
    assert all(r["usage"] is None for r in _records(project))
    serving = json.loads((project / "metrics" / "w.serving.json").read_text())["main"]
    assert serving["output_tokens"] == tokens


@pytest.mark.embedded
def test_the_embedded_server_reports_the_measured_defaults(tmp_path: Path) -> None:
    """The embedded llama-server's ``/props`` defaults are the table engines.py keeps, and a
    run records them in its manifest and records (without any knob in its greedy bodies)."""
    from stages.protocol.engines import EMBEDDED_DEFAULTS, NEUTRAL

    shutil.copytree(REPO / "datasets" / "eval-math-v1", tmp_path / "datasets" / "eval-math-v1")
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    params["run"].update(limit=None, timeout_s=3600)
    params["workloads"] = {"w": {"dataset": "eval-math-v1", "max_tokens": 8, "limit": 2}}
    (tmp_path / "params.yaml").write_text(yaml.safe_dump(params), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "from stages.cli import app; app()", "infer", "w"],
        cwd=tmp_path, capture_output=True, text=True, timeout=3600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = _manifest(tmp_path)
    [entry] = manifest["server_defaults"]
    assert (entry["engine"], entry["source"]) == ("llama.cpp", "/props")
    defaults = entry["defaults"]
    for name in NEUTRAL["llama.cpp"]:
        assert defaults[name] == pytest.approx(EMBEDDED_DEFAULTS[name], rel=1e-6), name
    assert entry["sha256"] == _sha(defaults)
    assert manifest["engine_kind"] == "llama.cpp (embedded)"
    assert "neutral_sampling" not in manifest["decoding"]
    assert {r["provenance"]["server_defaults_sha256"] for r in _records(tmp_path)} == {
        entry["sha256"]
    }


def test_shards_of_an_identified_engine_merge_and_are_reused(
    project: Path, stub: StubServer
) -> None:
    """The bodies a remote vLLM gets carry its knobs, so the merge plans them the same way
    (from the shards' manifests) and an unsharded rerun then sends nothing."""
    stub.config.owned_by = "vllm"
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(4)])
    write_params(project, stub.url)
    assert main(["infer", "w", "--shard", "0/2"]) == 0
    assert main(["infer", "w", "--shard", "1/2"]) == 0
    assert main(["merge", "w"]) == 0
    assert len(_records(project)) == 4 and stub.stats.requests == 4
    assert _manifest(project)["decoding"]["neutral_sampling"] == NEUTRAL_SENT["vllm"]
    assert main(["infer", "w"]) == 0
    assert stub.stats.requests == 4
