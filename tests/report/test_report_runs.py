"""The run table that opens report.md and report.html: each model revision once (issue 22)."""

from __future__ import annotations

from typing import Any

from stages.report.html import run_section
from stages.report.inputs import WorkloadInputs
from stages.report.markdown import run_lines

SMOL = {"name": "SmolLM2-135M-Instruct-Q4_1", "revision": "b179"}
DECODING = {"repeats": 1, "seed": 0, "stream": True, "temperature": 0.0, "top_p": 1.0}


def workload(name: str, model: dict[str, str], **decoding: Any) -> WorkloadInputs:
    manifest = {"model": model, "decoding": {**DECODING, **decoding}}
    return WorkloadInputs(name, {}, manifest, [], None)


def pipeline() -> list[WorkloadInputs]:
    """The embedded pipeline's shape: one model, groups that differ only in max_tokens."""
    return [
        workload("math", SMOL, max_tokens=192),
        workload("reasoning", SMOL, max_tokens=384),
        workload("knowledge", SMOL, max_tokens=192),
        workload("chat", SMOL, max_tokens=16),
        workload("code", SMOL, max_tokens=384),
    ]


def test_markdown_names_the_model_once_and_tabulates_what_differs() -> None:
    assert run_lines(pipeline()) == [
        "Model `SmolLM2-135M-Instruct-Q4_1` revision `b179`. Decoding of all its workloads: "
        '`{"repeats": 1, "seed": 0, "stream": true, "temperature": 0.0, "top_p": 1.0}`; '
        "by group:",
        "",
        "| max_tokens | workloads |",
        "|---|---|",
        "| 192 | math, knowledge |",
        "| 384 | reasoning, code |",
        "| 16 | chat |",
        "",
    ]


def test_each_model_revision_gets_its_own_group() -> None:
    other = {"name": "gemma-3-270m", "revision": "r1"}
    workloads = [
        workload("math", SMOL, max_tokens=192),
        workload("math-gemma", other, max_tokens=192),
        workload("chat", SMOL, max_tokens=16, temperature=0.7),
        workload("knowledge", {**SMOL, "revision": "c2"}, max_tokens=192),
    ]
    shared = '`{"repeats": 1, "seed": 0, "stream": true, "top_p": 1.0}`'
    full = '`{"max_tokens": 192, "repeats": 1, "seed": 0, "stream": true, "temperature": 0.0, '
    full += '"top_p": 1.0}`'
    assert run_lines(workloads) == [
        f"Model `SmolLM2-135M-Instruct-Q4_1` revision `b179`. Decoding of all its workloads: "
        f"{shared}; by group:",
        "",
        "| max_tokens | temperature | workloads |",
        "|---|---|---|",
        "| 192 | 0 | math |",
        "| 16 | 0.7 | chat |",
        "",
        f"Model `gemma-3-270m` revision `r1`. Decoding of all its workloads: {full}.",
        "",
        "| workloads |",
        "|---|",
        "| math-gemma |",
        "",
        f"Model `SmolLM2-135M-Instruct-Q4_1` revision `c2`. Decoding of all its workloads: {full}.",
        "",
        "| workloads |",
        "|---|",
        "| knowledge |",
        "",
    ]


def test_a_setting_only_some_groups_set_is_a_column() -> None:
    workloads = [workload("a", SMOL, max_tokens=8), workload("b", SMOL, max_tokens=8, stop="END")]
    assert run_lines(workloads)[2:6] == [
        "| stop | workloads |",
        "|---|---|",
        "| — | a |",
        "| END | b |",
    ]


def test_html_has_the_same_groups_escaped() -> None:
    html = run_section([*pipeline()[:2], workload("x", {"name": "<m>", "revision": "r&1"})])
    smol_shared = (
        "{&quot;repeats&quot;: 1, &quot;seed&quot;: 0, &quot;stream&quot;: true, "
        "&quot;temperature&quot;: 0.0, &quot;top_p&quot;: 1.0}"
    )
    assert html == (
        "<p>Model <code>SmolLM2-135M-Instruct-Q4_1</code> revision <code>b179</code>. Decoding "
        f"of all its workloads: <code>{smol_shared}</code>; by group:</p>"
        "<table><thead><tr><th>max_tokens</th><th>workloads</th></tr></thead><tbody>"
        '<tr><td class="num">192</td><td>math</td></tr>'
        '<tr><td class="num">384</td><td>reasoning</td></tr></tbody></table>'
        "<p>Model <code>&lt;m&gt;</code> revision <code>r&amp;1</code>. Decoding of all its "
        f"workloads: <code>{smol_shared}</code>.</p>"
        "<table><thead><tr><th>workloads</th></tr></thead><tbody><tr><td>x</td></tr></tbody>"
        "</table>"
    )
