"""Read eval-vision-v1 images back from their pixels (the second, independent proof).

``prove`` renders a row's PNG and recovers what it shows without looking at the ground truth:
shapes by connected components and the fill ratio of their bounding box (square ~1, circle
~0.79, triangle ~0.5), bar heights by scanning bar columns, clock hands by sampling rays of each
hand's colour, dice by counting pip components inside each die face.
"""

from __future__ import annotations

import io

from families.vision.draw import (
    BAR_BASE,
    BAR_SCALE,
    INDEX,
    MINUTE_LEN,
    SIZE,
    bar_slots,
    hand_point,
)

NAMES = {i: name for name, i in INDEX.items()}


def pixels(png: bytes) -> list[int]:
    """Palette indices of a rendered image, row by row."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        assert image.mode == "P" and image.size == (SIZE, SIZE)
        return list(image.tobytes())  # one palette index per pixel in mode P


def components(data: list[int], wanted: set[int]) -> list[list[int]]:
    """4-connected components of the pixels whose index is in ``wanted``, in scan order."""
    targets = [i for i, v in enumerate(data) if v in wanted]
    remaining = set(targets)
    found: list[list[int]] = []
    for first in targets:
        if first not in remaining:
            continue
        remaining.discard(first)
        stack, members = [first], []
        while stack:
            j = stack.pop()
            members.append(j)
            x = j % SIZE
            for n in (j - SIZE, j + SIZE, j - 1 if x else -1, j + 1 if x < SIZE - 1 else -1):
                if n in remaining:
                    remaining.discard(n)
                    stack.append(n)
        found.append(members)
    return found


def _box(members: list[int]) -> tuple[int, int, int, int]:
    xs, ys = [j % SIZE for j in members], [j // SIZE for j in members]
    return min(xs), min(ys), max(xs), max(ys)


def read_shapes(png: bytes) -> list[tuple[int, int, str, str]]:
    """``(top, left, shape, colour)`` of every shape, sorted by position."""
    data = pixels(png)
    seen = []
    for members in components(data, {i for i in NAMES if NAMES[i] != "white"}):
        colours = {data[j] for j in members}
        assert len(colours) == 1, "two shapes touch"
        x0, y0, x1, y1 = _box(members)
        ratio = len(members) / ((x1 - x0 + 1) * (y1 - y0 + 1))
        shape = "square" if ratio > 0.92 else "circle" if ratio > 0.65 else "triangle"
        seen.append((y0, x0, shape, NAMES[colours.pop()]))
    return sorted(seen)


def read_bars(png: bytes, count: int) -> list[int]:
    """Height of each bar in chart units, from the blue run above the baseline."""
    data = pixels(png)
    values = []
    for left, right in bar_slots(count):
        x = (left + right) // 2
        height = 0
        while data[(BAR_BASE - height) * SIZE + x] == INDEX["blue"]:
            height += 1
        values.append(height // BAR_SCALE)
    return values


def _ray_hits(data: list[int], angle: float, radii: range, colour: int) -> int:
    hits = 0
    for r in radii:
        x, y = hand_point(angle, r)
        hits += data[y * SIZE + x] == colour
    return hits


def read_clock(png: bytes) -> tuple[int, int]:
    """``(hour 1-12, minute)``: the navy ray that is filled, then the black one for that minute."""
    data = pixels(png)
    minute = max(
        range(60), key=lambda m: _ray_hits(data, m * 6, range(70, MINUTE_LEN - 2), INDEX["navy"])
    )
    hour = max(
        range(12),
        key=lambda h: _ray_hits(data, (h + minute / 60) * 30, range(20, 56), INDEX["black"]),
    )
    return hour or 12, minute


def read_dice(png: bytes) -> list[tuple[int, int, int]]:
    """``(top, left, pips)`` of every die face (a white component), sorted by position."""
    data = pixels(png)
    pips = [_box(m) for m in components(data, {INDEX["black"]})]
    found = []
    for members in components(data, {INDEX["white"]}):
        x0, y0, x1, y1 = _box(members)
        inside = sum(x0 < a and c < x1 and y0 < b and d < y1 for a, b, c, d in pips)
        found.append((y0, x0, inside))
    return sorted(found)
