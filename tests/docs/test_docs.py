"""README.md and docs/ (issue 22): a short README, one docs page per concept, and every command,
option, link and table they show true of the code as it is.

Commands are checked by ``doc_commands`` against the real CLI, DVC's parser and the Makefile;
the comparison and inference commands are also run for real on a two-revision project in
``tests/compare/test_pipeline_e2e.py``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import yaml

sys.path.append(str(Path(__file__).resolve().parent))
from doc_commands import (  # noqa: E402
    REPO,
    Shown,
    fenced_blocks,
    option_problems,
    problems,
    shown_commands,
)

PAGES = (
    "architecture", "pipeline", "running", "datasets", "adding-a-dataset", "scoring", "comparing",
    "serving", "review", "engine", "formats", "exporting", "benchmarks",
)  # fmt: skip
DOCS = [REPO / "docs" / f"{name}.md" for name in PAGES]
README = REPO / "README.md"
EVERY_PAGE = [README, *DOCS, REPO / "review" / "README.md"]
README_LIMIT = 12 * 1024
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _name(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_docs_holds_exactly_the_agreed_pages() -> None:
    assert sorted(p.name for p in (REPO / "docs").iterdir()) == sorted(f"{n}.md" for n in PAGES)


def test_readme_is_short_and_maps_every_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.encode()) <= README_LIMIT
    headings = re.findall(r"^## (.+)$", text, flags=re.M)
    assert headings == [
        "Quick start", "Point at an endpoint", "Compare two revisions", "Add a dataset",
        "Documentation",
    ]  # fmt: skip
    quick = [s.text for s in shown_commands(README) if s.block][:2]
    assert quick == ["make run", "make test"]
    docs_map = text.split("## Documentation", 1)[1]
    assert re.findall(r"^\| \[(docs/[\w-]+\.md)\]", docs_map, flags=re.M) == [
        f"docs/{n}.md" for n in PAGES
    ]


@pytest.mark.parametrize("page", DOCS, ids=_name)
def test_every_page_opens_with_its_guarantees_and_their_tests(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# "), "a page starts with its title"
    opening = text.split("\n\n", 2)[1]
    assert opening.startswith("**Guarantees.** ")
    named = re.findall(r"`(tests/[\w/]+\.py)`", opening)
    assert named, "the opening names the test files that prove the guarantees"
    assert [t for t in named if not (REPO / t).is_file()] == []


def test_every_command_the_docs_show_exists() -> None:
    shown = [s for page in [README, *DOCS] for s in shown_commands(page)]
    found = [p for s in shown for p in problems(s)]
    found += [p for page in [README, *DOCS] for p in option_problems(page)]
    assert found == []
    programs = {s.argv[0] for s in shown if s.block}
    assert {"atlas", "dvc", "make"} <= programs  # the checker saw the commands it is for
    assert sum(s.block and s.argv[0] == "atlas" for s in shown) >= 20


PLANTED = """\
Prose naming `atlas infer --frobnicate` and `atlas frobnicate ID` and `dvc exp shw`.

```sh
atlas infer math --limit 5          # fine
atlas infer math --limit five       # not an integer
atlas infer                         # the workload is required
atlas dataset mend eval-geometry-v1     # no such subcommand
atlas agreement labels.csv          # --method is required
atlas compare HEAD~1 HEAD --flip    # the option is --flips
dvc exp run -S run.limit=null && dvc metrics shwo
dvc metrics diff --bogus
make test bench deploy
frobnicate --all
.venv/bin/python tests/bench/no_such_bench.py
```

Options alone: `--dry-run` exists on `atlas infer math`, `--resend` exists nowhere.
"""


def test_the_checker_catches_every_planted_mistake(tmp_path: Path) -> None:
    page = tmp_path / "planted.md"
    page.write_text(PLANTED, encoding="utf-8")
    shown = shown_commands(page)
    found = {s.text: problems(s) for s in shown}
    assert {text for text, p in found.items() if not p} == {
        "atlas infer math --limit 5", "dvc exp run -S run.limit=null", "atlas infer math",
    }  # fmt: skip
    assert [s.where for s in shown if s.text == "atlas infer"] == ["planted.md:6"]
    said = {text: p[0].split(": ", 2)[2] for text, p in found.items() if p}
    assert said["atlas infer --frobnicate"] == "`atlas infer` has no option --frobnicate"
    assert said["atlas frobnicate ID"].startswith("`atlas` has no command 'frobnicate' (it has: ")
    assert "invalid choice" in said["dvc exp shw"] and "invalid choice" in said["dvc metrics shwo"]
    assert "--limit" in said["atlas infer math --limit five"]
    assert said["atlas infer"] == "`atlas infer`: Missing argument 'workload'."
    assert said["atlas dataset mend eval-geometry-v1"].startswith("`atlas dataset` has no command")
    assert "--method" in said["atlas agreement labels.csv"]
    assert "--flip" in said["atlas compare 'HEAD~1' HEAD --flip"]
    assert "unrecognized arguments: --bogus" in said["dvc metrics diff --bogus"]
    assert said["make test bench deploy"] == "the Makefile has no target 'deploy'"
    assert said["frobnicate --all"].startswith("unknown program 'frobnicate'")
    assert said[".venv/bin/python tests/bench/no_such_bench.py"] == (
        "no script tests/bench/no_such_bench.py"
    )
    assert option_problems(page) == [
        "planted.md:17: --resend: no command this page shows has that option"
    ]


def test_a_good_command_passes_and_a_continued_line_is_one_command(tmp_path: Path) -> None:
    page = tmp_path / "good.md"
    page.write_text("```sh\ndvc exp run -n x \\\n    -S model.name=y  # a comment\n```\n")
    (shown,) = shown_commands(page)
    assert shown == Shown("good.md:2", ("dvc", "exp", "run", "-n", "x", "-S", "model.name=y"), True)
    assert problems(shown) == []


@pytest.mark.parametrize("page", EVERY_PAGE, ids=_name)
def test_every_code_block_says_its_language(page: Path) -> None:
    blocks = fenced_blocks(page.read_text(encoding="utf-8"))
    assert [first for first, language, _ in blocks if not language] == []


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    text = page.read_text(encoding="utf-8")
    headings = re.findall(r"^#{1,6} (.+)$", text, flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", EVERY_PAGE, ids=_name)
def test_every_link_and_anchor_resolves(page: Path) -> None:
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+://", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (page.parent / file).resolve() if file else page
        if not linked.exists() or (anchor and anchor not in _anchors(linked)):
            broken.append(target)
    assert broken == []


def _sentences(text: str) -> list[str]:
    prose = "\n".join(
        line for line in text.splitlines() if not line.startswith(("|", "#", "```", "    "))
    )
    for _, _, body in fenced_blocks(text):
        for line in body:
            prose = prose.replace(line, "")
    words = re.sub(r"\s+", " ", prose)
    return [s.strip().lower() for s in re.split(r"(?<=[.!?:;])\s", words)]


def test_no_sentence_is_said_on_two_pages() -> None:
    seen: dict[str, str] = {}
    repeated = []
    for page in [README, *DOCS]:
        for sentence in _sentences(page.read_text(encoding="utf-8")):
            if len(sentence.split()) < 10:
                continue
            if sentence in seen:
                repeated.append((seen[sentence], _name(page), sentence))
            seen.setdefault(sentence, _name(page))
    assert repeated == []


def test_the_dataset_table_is_the_cards_and_the_workloads() -> None:
    text = (REPO / "docs" / "datasets.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `([a-z0-9-]+)` \| (\w+) \| (\d+) \| ([^|]*) \| (.*) \|$", text, re.M)
    runs: dict[str, list[str]] = {}
    for name, spec in yaml.safe_load((REPO / "params.yaml").read_text())["workloads"].items():
        runs.setdefault(spec["dataset"], []).append(f"`{name}`")
    expected = []
    for card_path in sorted((REPO / "datasets").glob("*/dataset.json")):
        card = json.loads(card_path.read_text(encoding="utf-8"))
        workloads = ", ".join(runs.get(card["id"], [])) or "—"
        expected.append(
            (card["id"], card["kind"], str(card["rows"]), workloads, card["description"])
        )
    assert table == expected


def test_every_params_key_is_documented() -> None:
    from stages import params

    pipeline = (REPO / "docs" / "pipeline.md").read_text(encoding="utf-8")
    serving = (REPO / "docs" / "serving.md").read_text(encoding="utf-8")
    sections = {
        "check": params.CheckParams, "model": params.ModelParams,
        "decoding": params.DecodingParams, "run": params.RunParams,
        "workloads.<w>": params.WorkloadParams, "judge": params.JudgeParams,
    }  # fmt: skip
    missing = [
        f"{prefix}.{field}"
        for prefix, model in sections.items()
        for field in model.model_fields
        if f"| `{prefix}.{field}` |" not in pipeline
    ]
    missing += [
        f"load.{field}"
        for field in params.LoadParams.model_fields
        if f"| `{field}` |" not in serving
    ]
    missing += [f"slo.{field}" for field in params.SloParams.model_fields if field not in serving]
    assert missing == []


def test_code_and_tests_point_at_docs_pages_not_readme_sections() -> None:
    """Docstrings, comments and messages that send a reader somewhere name a docs page that
    exists (and its section, when they give one), never a README section."""
    files = [
        p
        for folder in ("stages", "_gen", "tests", "review", ".ci")
        for p in (REPO / folder).rglob("*")
        if p.suffix in {".py", ".yaml", ".md", ""} and p.is_file() and p.name != "test_docs.py"
    ] + [REPO / "params.yaml", REPO / "dvc.yaml", REPO / "Makefile"]
    stale, broken = [], []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        if re.search(r"README\s*[§,:]", text):
            stale.append(_name(path))
        for page, anchor in re.findall(r"docs/([\w-]+\.md)(?:#([\w-]+))?", text):
            target = REPO / "docs" / page
            if not target.is_file() or (anchor and anchor not in _anchors(target)):
                broken.append(f"{_name(path)}: docs/{page}#{anchor}")
    assert stale == []
    assert broken == []


def test_every_project_path_the_docs_name_exists() -> None:
    """A file or folder named in backticks (``stages/…``, ``_gen/…``, ``tests/…``, ``review/…``,
    ``datasets/<id>/…``) exists, unless it is a pattern (``<w>``, ``*``), a reading package, or
    belongs to the example dataset the contributor steps create."""
    missing = []
    for page in [README, *DOCS]:
        for span in re.findall(r"`([^`\s]+)`", page.read_text(encoding="utf-8")):
            path = span.split("#")[0].split("::")[0].rstrip("/")
            if not re.match(r"(stages|_gen|tests|review/(studies|demo|verdicts)|datasets)/", path):
                continue
            example = re.search(r"[<>*…{}]|\.\.\.|eval-geometry-v1|eval_geometry_v1", path)
            if example or path.startswith("review/packages"):
                continue
            if not (REPO / path).exists():
                missing.append(f"{_name(page)}: {span}")
    assert missing == []
