"""eval-vision-v1: images are small deterministic palette PNGs without metadata, the pixel
readers recover hand-chosen drawings exactly, and every committed answer follows from what the
committed image shows."""

from __future__ import annotations

import json
import struct
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
DATASET = REPO / "datasets" / "eval-vision-v1"
ROWS = [json.loads(line) for line in (DATASET / "rows.jsonl").read_text("utf-8").splitlines()]
sys.path.insert(0, str(REPO / "_gen"))
from families.vision import pixels as read  # noqa: E402
from families.vision.draw import render  # noqa: E402


def _chunks(png: bytes) -> list[str]:
    names, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        names.append(png[at + 4 : at + 8].decode("ascii"))
        at += 12 + length
    return names


def test_rows_and_families() -> None:
    assert len(ROWS) == 120
    assert Counter(r["category"] for r in ROWS) == {
        "shapes": 30,
        "bars": 30,
        "clock": 30,
        "dice": 30,
    }
    assert Counter(r["scorer"] for r in ROWS) == {"numeric": 84, "mc": 24, "exact": 12}
    assert all(r["image"] == f"images/{r['id']}.png" for r in ROWS)


def test_images_are_small_palette_pngs_without_metadata() -> None:
    sizes = []
    for row in ROWS:
        png = (DATASET / row["image"]).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[16:24] == struct.pack(">II", 256, 256)
        assert [c for c in _chunks(png) if c != "IDAT"] == ["IHDR", "PLTE", "IEND"], row["id"]
        sizes.append(len(png))
    assert max(sizes) < 12_000 and sum(sizes) < 700_000


def test_rendering_is_deterministic() -> None:
    row = ROWS[0]
    assert (
        render(row["category"], row["meta"]["ground_truth"])
        == (DATASET / row["image"]).read_bytes()
    )


def test_readers_recover_hand_chosen_drawings() -> None:
    shapes = {
        "shapes": [
            {"shape": "circle", "color": "red", "box": [10, 12, 30]},
            {"shape": "triangle", "color": "blue", "box": [100, 20, 40]},
            {"shape": "square", "color": "green", "box": [70, 150, 24]},
        ]
    }
    assert read.read_shapes(render("shapes", shapes)) == [
        (12, 10, "circle", "red"),
        (20, 100, "triangle", "blue"),
        (150, 70, "square", "green"),
    ]
    assert read.read_bars(render("bars", {"values": [10, 55, 100, 5]}), 4) == [10, 55, 100, 5]
    clock = {"hour": 3, "minute": 0, "minute_ticks": False}
    assert read.read_clock(render("clock", clock)) == (3, 0)
    assert read.read_clock(render("clock", dict(clock, hour=12, minute=30))) == (12, 30)
    assert read.read_clock(render("clock", dict(clock, hour=7, minute=48, minute_ticks=True))) == (
        7,
        48,
    )
    dice = {"dice": [{"value": 1, "box": [10, 10]}, {"value": 6, "box": [120, 40]}]}
    assert read.read_dice(render("dice", dice)) == [(12, 12, 1), (42, 122, 6)]


def _answer_from_pixels(row: dict[str, Any]) -> Any:
    png = (DATASET / row["image"]).read_bytes()
    ask, qtype = row["meta"]["ask"], row["meta"]["question_type"]
    if row["category"] == "shapes":
        seen = read.read_shapes(png)
        kinds = Counter(shape for _, _, shape, _ in seen)
        if qtype == 3:
            return "ABC"[["circle", "square", "triangle"].index(kinds.most_common(1)[0][0])]
        return (kinds[ask.get("shape")], sum(c == ask.get("color") for *_, c in seen), len(seen))[
            qtype
        ]
    if row["category"] == "bars":
        values = read.read_bars(png, len(row["meta"]["ground_truth"]["values"]))
        if qtype == 1:
            return "ABCDEF"[values.index(max(values))]
        return values[ask["bar"] - 1] if qtype == 0 else max(values) - min(values)
    if row["category"] == "clock":
        hour, minute = read.read_clock(png)
        if qtype == 1:
            return minute
        shown = f"{hour}:{minute:02d}"
        return shown if qtype == 0 else "ABCD"[row["choices"].index(shown)]
    pips = [v for *_, v in read.read_dice(png)]
    return (sum(pips), max(pips), sum(v % 2 == 0 for v in pips))[qtype]


@pytest.mark.parametrize("family", ["shapes", "bars", "clock", "dice"])
def test_committed_answers_follow_from_the_committed_pixels(family: str) -> None:
    for row in (r for r in ROWS if r["category"] == family):
        gold = row["answer"][0] if isinstance(row["answer"], list) else row["answer"]
        assert _answer_from_pixels(row) == gold, row["id"]
