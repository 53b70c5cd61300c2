"""The items that changed outcome between A and B, with what a reader needs to judge them: a
prompt excerpt and the gold answer from the dataset rows (read with git at the revision) and
both extracted answers from the verdict lines (issue 10, ``--flips``)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from stages.compare.run import Comparison, dataset_rows
from stages.markdown_text import inline
from stages.scoring.metrics import row_facts

WIDTH = 100
#: Flips printed per workload and direction in the terminal (compare.md and --json list all).
SHOWN = 10
DOWN, UP = "right->wrong", "wrong->right"


@dataclass(frozen=True)
class Flip:
    """One paired item whose correctness differs between A and B."""

    workload: str
    key: str
    """Item id, plus ``#repeat`` after the first repeat."""
    direction: str
    prompt: str
    gold: str
    a: str | None
    """Answer extracted from A's output (clipped to 60 characters)."""
    b: str | None
    a_failed: str | None
    b_failed: str | None


def _short(value: Any, width: int) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def collect(result: Comparison) -> list[Flip]:
    """Every flip of every compared workload, right->wrong first, each in (id, repeat) order."""
    out = []
    for name, paired in result.paired.items():
        rows = dataset_rows(paired)
        for direction in (DOWN, UP):
            for a, b in paired.pairs:
                if a.correct is None or b.correct is None or a.correct == b.correct:
                    continue
                if (direction == DOWN) != bool(a.correct):
                    continue
                row = rows.get(a.id)
                facts = row_facts(row) if row is not None else {"prompt_excerpt": "", "gold": None}
                out.append(
                    Flip(
                        workload=name,
                        key=a.key,
                        direction=direction,
                        prompt=str(facts["prompt_excerpt"]),
                        gold=_short(facts["gold"], 160),
                        a=a.extracted,
                        b=b.extracted,
                        a_failed=a.failed,
                        b_failed=b.failed,
                    )
                )
    return out


def _answer(extracted: str | None, failed: str | None) -> str:
    if failed is not None:
        return f"(failed: {failed})"
    return "(nothing extracted)" if extracted is None else _short(extracted, 60)


def _flip_lines(flip: Flip) -> list[str]:
    answers = f"A: {_answer(flip.a, flip.a_failed)} | B: {_answer(flip.b, flip.b_failed)}"
    lines = [
        "  " + _short(f"{flip.key} {flip.direction}, gold: {flip.gold}", WIDTH - 2),
        "    " + _short(answers, WIDTH - 4),
    ]
    if flip.prompt:
        lines.append("    " + _short(f"prompt: {flip.prompt}", WIDTH - 4))
    return lines


def terminal_lines(flips: list[Flip], shown: int = SHOWN) -> list[str]:
    """Per workload a count line, then up to ``shown`` flips of each direction (two or three
    lines each, at most :data:`WIDTH` characters) and how many more compare.md lists."""
    out: list[str] = []
    for workload in dict.fromkeys(f.workload for f in flips):
        mine = [f for f in flips if f.workload == workload]
        down = [f for f in mine if f.direction == DOWN]
        up = [f for f in mine if f.direction == UP]
        out.append(f"Flips in {workload}: {len(down)} {DOWN}, {len(up)} {UP}")
        for group in (down, up):
            for flip in group[:shown]:
                out += _flip_lines(flip)
            if len(group) > shown:
                more = len(group) - shown
                out.append(f"  … {more} more {group[0].direction} (all in --json and compare.md)")
    return out


def markdown_lines(flips: list[Flip]) -> list[str]:
    if not flips:
        return []
    header = "| workload | item | flip | gold | A | B | prompt (excerpt) |"
    lines = [header, "|---|---|---|---|---|---|---|"]
    for f in flips:
        cells = [f.workload, f.key, f.direction, f.gold, _answer(f.a, f.a_failed),
                 _answer(f.b, f.b_failed), _short(f.prompt, 160)]  # fmt: skip
        lines.append("| " + " | ".join(inline(c) for c in cells) + " |")  # model text: inert
    return lines


def as_dict(flips: list[Flip]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for flip in flips:
        out.setdefault(flip.workload, []).append(asdict(flip))
    return out
