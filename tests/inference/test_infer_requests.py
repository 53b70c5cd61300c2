"""Request bodies: what is sent for each row shape (spec 001 contracts), checked at the stub."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from infer_helpers import eval_row, prompt_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.errors import AtlasError
from stages.inference.requests import Sampling, build_body, image_part

SAMPLING = Sampling("m", temperature=0.0, top_p=1.0, max_tokens=7, seed=3, stream=True)
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {
    "type": "object", "properties": {"city": {"type": "string"}}}}}]  # fmt: skip
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 8

FAKE_BUILDER = """
def build_prompt(item):
    doc = "\\n".join(f"Line {i:06d}: filler {item['seed']}" for i in range(1, 4))
    return "PREAMBLE\\n\\n" + doc + "\\n\\n" + item["question"]
"""


def test_prompt_row_body_carries_decoding_and_stream_options(tmp_path: Path) -> None:
    body = build_body(eval_row(1), "eval", "eval-t-v1", tmp_path, SAMPLING, "row")
    assert body == {
        "model": "m", "temperature": 0.0, "top_p": 1.0, "max_tokens": 7, "seed": 3,
        "stream": True, "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "What is 1 + 1?"}],
    }  # fmt: skip


def test_non_streaming_body_has_no_stream_options_and_null_seed_is_omitted(tmp_path: Path) -> None:
    sampling = Sampling("m", 0.0, 1.0, 7, seed=None, stream=False)
    body = build_body(eval_row(1), "eval", "eval-t-v1", tmp_path, sampling, "row")
    assert body["stream"] is False
    assert "stream_options" not in body and "seed" not in body


def test_shared_prefix_and_tools_reach_the_server_as_specified(
    project: Path, stub: StubServer
) -> None:
    system = "You are terse."
    rows = [prompt_row(1, shared_prefix=system), prompt_row(2)]
    write_dataset(project, "prompts-t-v1", "prompts", rows)
    tool_row = eval_row(1, meta={"tools": TOOLS})
    messages = [{"role": "system", "content": "Answer briefly."}, {"role": "user", "content": "Hi"}]
    plain = eval_row(2, prompt=None, messages=messages)
    write_dataset(project, "eval-t-v1", "eval", [tool_row, plain])
    workloads = {"p": {"dataset": "prompts-t-v1"}, "e": {"dataset": "eval-t-v1", "stream": False}}
    write_params(project, stub.url, workloads=workloads, run={"concurrency": 1})
    assert main(["infer", "p"]) == 0
    assert main(["infer", "e"]) == 0
    bodies = stub.stats.bodies
    assert bodies[0]["messages"] == [
        {"role": "system", "content": system},
        {"role": "user", "content": "Say something about item 1."},
    ]
    assert bodies[1]["messages"] == [{"role": "user", "content": "Say something about item 2."}]
    assert bodies[2]["tools"] == TOOLS and bodies[2]["tool_choice"] == "auto"
    assert bodies[3]["messages"] == messages
    assert "tools" not in bodies[3] and "tool_choice" not in bodies[3]
    assert bodies[3]["stream"] is False and "stream_options" not in bodies[3]


def test_image_is_sent_as_a_data_uri_part(tmp_path: Path) -> None:
    out = write_dataset(tmp_path, "eval-vis-v1", "eval", [eval_row(1, image="images/a.png")],
                        extra_files={"images/a.png": PNG})  # fmt: skip
    body = build_body(eval_row(1, image="images/a.png"), "eval", "eval-vis-v1", out, SAMPLING, "r")
    expected_url = "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert body["messages"] == [{"role": "user", "content": [
        {"type": "text", "text": "What is 1 + 1?"},
        {"type": "image_url", "image_url": {"url": expected_url}},
    ]}]  # fmt: skip


def test_image_path_leaving_the_dataset_dir_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.png").write_bytes(PNG)
    dataset = tmp_path / "datasets" / "eval-vis-v1"
    (dataset / "images").mkdir(parents=True)
    with pytest.raises(AtlasError, match="leaves the dataset directory"):
        image_part(dataset, "../../secret.png", "row 1")
    (dataset / "images" / "link.png").symlink_to(tmp_path / "secret.png")
    with pytest.raises(AtlasError, match="leaves the dataset directory"):
        image_part(dataset, "images/link.png", "row 1")


def test_image_traversal_through_a_symlink_stops_atlas_infer(
    project: Path, stub: StubServer
) -> None:
    (project / "outside.png").write_bytes(PNG)
    out = write_dataset(project, "eval-t-v1", "eval", [eval_row(1, image="images/a.png")],
                        extra_files={"images/a.png": PNG})  # fmt: skip
    (out / "images" / "a.png").unlink()
    (out / "images" / "a.png").symlink_to(project / "outside.png")
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 2
    assert stub.stats.requests == 0


def _longctx_project(root: Path, builder: str | None) -> None:
    recipe = {"seed": 11, "target_tokens": 64, "needles": [], "question": "What is the code?"}
    row = eval_row(1, prompt="What is the code?", meta={"haystack": recipe})
    write_dataset(root, "eval-longctx-v1", "eval", [row])
    if builder is not None:
        (root / "datasets" / "haystack-v1").mkdir(parents=True)
        (root / "datasets" / "haystack-v1" / "build.py").write_text(builder, encoding="utf-8")


def test_longctx_row_is_sent_with_its_built_document(project: Path, stub: StubServer) -> None:
    _longctx_project(project, FAKE_BUILDER)
    write_params(project, stub.url, workloads={"w": {"dataset": "eval-longctx-v1"}})
    assert main(["infer", "w"]) == 0
    [body] = stub.stats.bodies
    assert body["messages"] == [{"role": "user", "content": (
        "PREAMBLE\n\nLine 000001: filler 11\nLine 000002: filler 11\nLine 000003: filler 11"
        "\n\nWhat is the code?"
    )}]  # fmt: skip


def test_longctx_without_builder_never_sends_the_question_alone(
    project: Path, stub: StubServer, capsys: pytest.CaptureFixture[str]
) -> None:
    _longctx_project(project, None)
    write_params(project, stub.url, workloads={"w": {"dataset": "eval-longctx-v1"}})
    assert main(["infer", "w"]) == 2
    assert "haystack-v1/build.py: missing" in capsys.readouterr().err
    assert stub.stats.requests == 0


def test_longctx_row_without_recipe_is_refused(tmp_path: Path) -> None:
    (tmp_path / "haystack-v1").mkdir()
    (tmp_path / "haystack-v1" / "build.py").write_text(FAKE_BUILDER, encoding="utf-8")
    with pytest.raises(AtlasError, match="never as the question alone"):
        build_body(eval_row(1), "eval", "eval-longctx-v1", tmp_path / "eval-longctx-v1",
                   SAMPLING, "row 1")  # fmt: skip


def test_builder_that_returns_only_the_question_is_refused(tmp_path: Path) -> None:
    (tmp_path / "haystack-v1").mkdir()
    (tmp_path / "haystack-v1" / "build.py").write_text(
        "def build_prompt(item):\n    return item['question']\n", encoding="utf-8"
    )
    row = eval_row(1, meta={"haystack": {"seed": 1, "target_tokens": 8, "needles": []}})
    with pytest.raises(AtlasError, match="returned no document"):
        build_body(row, "eval", "eval-longctx-v2", tmp_path / "eval-longctx-v2", SAMPLING, "r")


def test_workload_max_tokens_overrides_decoding(project: Path, stub: StubServer) -> None:
    write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
    workloads = {"w": {"dataset": "eval-t-v1"}, "short": {"dataset": "eval-t-v1", "max_tokens": 5}}
    write_params(project, stub.url, workloads=workloads)
    assert main(["infer", "w"]) == 0
    assert main(["infer", "short"]) == 0
    assert [b["max_tokens"] for b in stub.stats.bodies] == [32, 5]
    record = json.loads((project / "results" / "short" / "responses.jsonl").read_text())
    assert record["id"] == "q-0001" and record["output"] == "Answer: 42"
