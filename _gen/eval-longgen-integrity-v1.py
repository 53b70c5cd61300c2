# /// script
# requires-python = ">=3.11"
# dependencies = []
# ///
"""eval-longgen-integrity-v1: 36 long code generations scored for spliced tokens (spec 001,
"eval-longgen-integrity-v1").

Each prompt is a synthetic 20-25k-character JavaScript ES-module project
(``families.longgen.jsproject`` and ``families.longgen.jsblocks``: seeded domain vocabulary,
identifiers and numeric constants) plus a task to write one new module of a stated line range that
imports at least six named exports. ``answer`` is "clean" and the ``splice`` scorer judges the
output against ``meta.context_identifiers``: every identifier the project defines or exports, parsed
from the generated source. ``prove`` rebuilds the project and requires the parsed set to equal the
emitter's own list of definitions.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import lib
from families.longgen import jsblocks as blocks
from families.longgen.jsproject import DOMAINS, Project, parse_identifiers, parse_numbers, render

DATASET_ID = "eval-longgen-integrity-v1"
KIND = "eval"
DESCRIPTION = (
    "Long code generations (150-290 lines of JavaScript against a 20-25k-character synthetic "
    "project) scored for spliced identifiers and numbers: the share that came back intact."
)
SEED = 20_261_204
CREATED = "2026-12-01"
DEFAULT_SCORER = "splice"
COUNT = 36
#: difficulty -> (fewest lines, most lines, target output tokens); rows are ordered by length.
LEVELS = {"easy": (150, 190, 1200), "medium": (200, 240, 1800), "hard": (250, 290, 2400)}
PROJECT_CHARS = (20_000, 25_000)
MIN_IMPORTS = 6
PURPOSES = (
    (
        "Digest",
        "builds a daily {domain} digest: it creates records with the project's factory, "
        "validates them, groups them by status and formats a plain-text summary",
    ),
    (
        "Planner",
        "plans the next {noun} batch from a list of records, respecting the limits and "
        "thresholds defined in the configuration",
    ),
    (
        "Audit",
        "audits a list of {noun} records and reports every inconsistency it finds, with "
        "counts per status and the worst offenders first",
    ),
    (
        "Forecast",
        "forecasts the coming week's {noun} figures from past records using rolling "
        "averages and the project's clamping helpers",
    ),
)


def build_project(rng: random.Random) -> Project:
    """A project of eight files filled evenly with blocks up to a seeded size."""
    domain = rng.choice(sorted(DOMAINS))
    p = Project(rng, domain)
    first, second, third = rng.sample(DOMAINS[domain], 3)
    paths = [
        "src/config.js",
        f"src/{first}Models.js",
        f"src/{second}Math.js",
        f"src/{third}Store.js",
        "src/validation.js",
        "src/scheduling.js",
        "src/reporting.js",
        "src/formatting.js",
    ]
    target = rng.randint(PROJECT_CHARS[0] + 400, PROJECT_CHARS[1] - 1_400)
    for k, path in enumerate(paths):
        p.files[path], p.exports[path] = [], []
        if k == 0:
            for block in (blocks.constants, blocks.settings, blocks.constants, blocks.settings):
                block(p, path)
            continue
        if k == 1:
            blocks.factory(p, path)
            blocks.klass(p, path)
            continue
        called, (source, constant) = rng.choice(p.functions), rng.choice(p.constants)
        for module in dict.fromkeys((called.path, source)):
            names = [n for n in (called.name, constant) if n in p.exports[module]]
            p.files[path].append(f"import {{ {', '.join(names)} }} from './{module[4:]}';")
        p.files[path].append("")
        blocks.bridge(p, path, called, constant)
        while p.size() < target * (k + 1) // len(paths):
            rng.choice(blocks.FUNCTION_BLOCKS + (blocks.klass, blocks.constants))(p, path)
    return p


def _task(rng: random.Random, p: Project, difficulty: str) -> tuple[str, str]:
    suffix, purpose = rng.choice(PURPOSES)
    noun = p.noun()
    module = f"src/{noun}{suffix}.js"
    low, high, _ = LEVELS[difficulty]
    text = (
        f"Task: write one complete new module, `{module}`, that "
        f"{purpose.format(domain=p.domain, noun=noun)}.\nRequirements:\n"
        f"- between {low} and {high} lines long;\n"
        f"- import at least {MIN_IMPORTS} named exports from the files above, with their exact "
        "names and relative paths (the new file lives in src/ too);\n"
        "- export at least four functions of your own, each with a JSDoc comment;\n"
        "- no placeholders, no TODO comments and no elided code.\n"
        "Reply with the contents of the file and nothing else."
    )
    return module, text


def generate(rng: random.Random, idx: int) -> dict[str, Any]:
    difficulty = tuple(LEVELS)[idx * len(LEVELS) // COUNT]
    p = build_project(rng)
    project = render(p.files)
    module, task = _task(rng, p, difficulty)
    prompt = (
        "You are working on the JavaScript project below (ES modules). Each file starts "
        "with a `// File: <path>` line.\n\n" + project + "\n" + task
    )
    low, high, tokens = LEVELS[difficulty]
    return {
        "id": f"longgen-{idx + 1:04d}",
        "category": p.domain,
        "difficulty": difficulty,
        "prompt": prompt,
        "answer": "clean",
        "scorer": DEFAULT_SCORER,
        "meta": {
            "context_identifiers": parse_identifiers(project),
            "context_numbers": parse_numbers(project),
            "target_output_tokens": tokens,
            "line_range": [low, high],
            "module": module,
            "exports": {path: names for path, names in p.exports.items() if names},
            "project_chars": len(project),
        },
    }


def prove(row: dict[str, Any]) -> None:
    idx = int(row["id"].split("-")[1]) - 1
    p = build_project(lib.row_rng(SEED, idx))
    project = render(p.files)
    meta = row["meta"]
    assert row["prompt"].count(project) == 1, f"{row['id']}: project text"
    assert PROJECT_CHARS[0] <= len(project) == meta["project_chars"] <= PROJECT_CHARS[1], row["id"]
    parsed = parse_identifiers(project)
    missing, extra = set(p.defined) - set(parsed), set(parsed) - set(p.defined)
    assert not missing and not extra, f"{row['id']}: parser misses {missing}, invents {extra}"
    assert meta["context_identifiers"] == sorted(p.defined), row["id"]
    exported = [n for names in meta["exports"].values() for n in names]
    assert len(exported) >= MIN_IMPORTS and set(exported) <= set(parsed), row["id"]
    for path, names in meta["exports"].items():
        for name in names:
            assert (
                f"export const {name} " in project
                or f" {name}(" in project
                or f"class {name} " in project
            ), f"{row['id']}: {path} {name}"
    low, high, tokens = LEVELS[row["difficulty"]]
    assert meta["line_range"] == [low, high] and meta["target_output_tokens"] == tokens
    assert f"between {low} and {high} lines" in row["prompt"], row["id"]


def prove_all(rows: list[dict[str, Any]]) -> None:
    lib.assert_unique(rows, lambda r: r["prompt"], "prompt")
    assert [r["difficulty"] for r in rows] == sorted(
        (r["difficulty"] for r in rows), key=list(LEVELS).index
    )
    assert {r["difficulty"] for r in rows} == set(LEVELS) and len(rows) == 36


def main(argv: list[str] | None = None) -> None:
    lib.run(
        dataset_id=DATASET_ID,
        kind=KIND,
        description=DESCRIPTION,
        generator_file=f"_gen/{Path(__file__).name}",
        seed=SEED,
        count=COUNT,
        default_scorer=DEFAULT_SCORER,
        created=CREATED,
        generate=generate,
        prove=prove,
        prove_all=prove_all,
        argv=argv,
    )


if __name__ == "__main__":
    main()
