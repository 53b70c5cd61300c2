"""Deterministic Pillow renderers for eval-vision-v1 (spec 001, "eval-vision-v1").

Every image is a 256x256 palette PNG drawn from its ``meta.ground_truth`` alone, without
anti-aliasing or fonts (labels use the 3x5 bitmap digits below), and saved with a fixed
compression level and no metadata chunks, so the bytes depend only on the ground truth and the
Pillow/zlib build. Colours are palette indices, which is what the pixel readers test for.
"""

from __future__ import annotations

import io
import math
from typing import Any

SIZE = 256
PALETTE = {
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "red": (215, 38, 38),
    "blue": (38, 84, 215),
    "green": (40, 150, 60),
    "orange": (240, 150, 30),
    "purple": (135, 60, 180),
    "grey": (140, 140, 140),
    "light": (222, 222, 222),
    "felt": (28, 100, 58),
    "navy": (20, 30, 120),
}
INDEX = {name: i for i, name in enumerate(PALETTE)}
SHAPE_COLORS = ("red", "blue", "green", "orange", "purple")
DIGITS = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
}
# Bar chart geometry: value v is a bar of 2*v pixels standing on row BAR_BASE.
BAR_BASE, BAR_SCALE, PLOT_LEFT, PLOT_RIGHT = 220, 2, 44, 248
CLOCK_C, HOUR_LEN, MINUTE_LEN = 128, 60, 96
# Dice: pip centres on a 3x3 grid inside a die of side DIE px.
DIE = 56
PIPS = {
    1: (4,),
    2: (0, 8),
    3: (0, 4, 8),
    4: (0, 2, 6, 8),
    5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8),
}


def bar_slots(count: int) -> list[tuple[int, int]]:
    """``(left, right)`` pixel columns (inclusive) of each of ``count`` bars."""
    pitch = (PLOT_RIGHT - PLOT_LEFT) // count
    width = pitch * 3 // 5
    return [
        (
            PLOT_LEFT + i * pitch + (pitch - width) // 2,
            PLOT_LEFT + i * pitch + (pitch - width) // 2 + width - 1,
        )
        for i in range(count)
    ]


def hand_point(angle_deg: float, radius: float) -> tuple[int, int]:
    """Pixel at ``radius`` along a clock hand at ``angle_deg`` (0 = twelve, clockwise)."""
    rad = math.radians(angle_deg)
    return round(CLOCK_C + radius * math.sin(rad)), round(CLOCK_C - radius * math.cos(rad))


def _text(draw: Any, x: int, y: int, text: str, scale: int) -> None:
    for k, char in enumerate(text):
        for cell, bit in enumerate(DIGITS[char]):
            if bit == "1":
                cx, cy = x + k * 4 * scale + (cell % 3) * scale, y + (cell // 3) * scale
                draw.rectangle([cx, cy, cx + scale - 1, cy + scale - 1], fill=INDEX["black"])


def _shapes(draw: Any, gt: dict[str, Any]) -> None:
    for item in gt["shapes"]:
        x, y, s = item["box"]
        fill = INDEX[item["color"]]
        if item["shape"] == "circle":
            draw.ellipse([x, y, x + s - 1, y + s - 1], fill=fill)
        elif item["shape"] == "square":
            draw.rectangle([x, y, x + s - 1, y + s - 1], fill=fill)
        else:
            draw.polygon([(x + s // 2, y), (x, y + s - 1), (x + s - 1, y + s - 1)], fill=fill)


def _bars(draw: Any, gt: dict[str, Any]) -> None:
    for value in range(0, 101, 10):
        row = BAR_BASE - value * BAR_SCALE
        draw.line([(PLOT_LEFT - 4, row), (PLOT_RIGHT, row)], fill=INDEX["light"])
        if value % 20 == 0:
            label = str(value)
            _text(draw, 36 - len(label) * 8, row - 4, label, 2)
    draw.line([(40, 16), (40, BAR_BASE + 1)], fill=INDEX["black"], width=1)
    draw.line([(40, BAR_BASE + 1), (PLOT_RIGHT, BAR_BASE + 1)], fill=INDEX["black"], width=1)
    for k, ((left, right), value) in enumerate(
        zip(bar_slots(len(gt["values"])), gt["values"], strict=True)
    ):
        draw.rectangle(
            [left, BAR_BASE - value * BAR_SCALE + 1, right, BAR_BASE], fill=INDEX["blue"]
        )
        _text(draw, (left + right) // 2 - 2, BAR_BASE + 8, str(k + 1), 2)


def _clock(draw: Any, gt: dict[str, Any]) -> None:
    c = CLOCK_C
    draw.ellipse([c - 118, c - 118, c + 118, c + 118], fill=INDEX["black"])
    draw.ellipse([c - 114, c - 114, c + 114, c + 114], fill=INDEX["white"])
    if gt["minute_ticks"]:
        for minute in range(60):
            draw.line(
                [hand_point(minute * 6, 104), hand_point(minute * 6, 111)], fill=INDEX["grey"]
            )
    for hour in range(12):
        draw.line(
            [hand_point(hour * 30, 98), hand_point(hour * 30, 111)],
            fill=INDEX["black"],
            width=4 if hour % 3 == 0 else 2,
        )
    hour_angle = (gt["hour"] % 12 + gt["minute"] / 60) * 30
    draw.line([(c, c), hand_point(hour_angle, HOUR_LEN)], fill=INDEX["black"], width=8)
    draw.line([(c, c), hand_point(gt["minute"] * 6, MINUTE_LEN)], fill=INDEX["navy"], width=4)
    draw.ellipse([c - 6, c - 6, c + 6, c + 6], fill=INDEX["black"])


def _dice(draw: Any, gt: dict[str, Any]) -> None:
    for die in gt["dice"]:
        x, y = die["box"]
        draw.rectangle([x, y, x + DIE - 1, y + DIE - 1], fill=INDEX["grey"])
        draw.rectangle([x + 2, y + 2, x + DIE - 3, y + DIE - 3], fill=INDEX["white"])
        for cell in PIPS[die["value"]]:
            px, py = x + 14 + (cell % 3) * 14, y + 14 + (cell // 3) * 14
            draw.ellipse([px - 5, py - 5, px + 5, py + 5], fill=INDEX["black"])


RENDERERS = {"shapes": _shapes, "bars": _bars, "clock": _clock, "dice": _dice}


def render(kind: str, ground_truth: dict[str, Any]) -> bytes:
    """The PNG bytes of one image."""
    from PIL import Image, ImageDraw

    background = "felt" if kind == "dice" else "white"
    image = Image.new("P", (SIZE, SIZE), INDEX[background])
    image.putpalette([channel for rgb in PALETTE.values() for channel in rgb])
    RENDERERS[kind](ImageDraw.Draw(image), ground_truth)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=9, optimize=False)
    return buffer.getvalue()
