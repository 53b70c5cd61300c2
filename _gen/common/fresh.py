"""Fresh instances of a generator (``atlas dataset fresh``): rows drawn again when rejected.

``lib.run`` calls :func:`fresh_rows` only when ``ATLAS_FRESH_SEED`` is set, so a published
dataset's bytes never depend on this module. Standard library only, like every generator helper.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from common import canonical, seeds

#: Draws a row gets at most (the first included).
FRESH_REDRAWS = 50


def _item_keys(row: dict[str, Any]) -> set[str]:
    """What makes two rows the same item: everything but the id (and image name), or the text
    sent when there is no image."""
    rest = {k: v for k, v in row.items() if k not in ("id", "image")}
    keys = {"row:" + canonical.canonical_line(rest)}
    if "image" not in row:
        sent = {k: row.get(k) for k in ("prompt", "messages", "shared_prefix")}
        keys.add("text:" + canonical.canonical_line(sent))
    return keys


class _Redraw:
    """Row ``idx``'s draws under a fresh seed; ``row_rng`` reads the draw number being built."""

    def __init__(self, generate: Callable[[random.Random, int], dict[str, Any]], seed: int):
        self.generate, self.seed = generate, seed
        self.draws: dict[int, int] = {}
        self.used: dict[int, int] = {}

    def next(self, idx: int, taken: set[str]) -> dict[str, Any]:
        """The next draw of row ``idx`` that builds and repeats nothing in ``taken`` (after
        ``FRESH_REDRAWS`` draws, the last one that built, even if it repeats: it stays counted)."""
        last: tuple[int, dict[str, Any]] | None = None
        error: Exception | None = None
        while self.draws.get(idx, 0) < FRESH_REDRAWS:
            number = self.draws[idx] = self.draws.get(idx, 0) + 1
            try:
                with seeds.redraw(number - 1):
                    row = self.generate(seeds.row_rng(self.seed, idx), idx)
            except Exception as exc:  # a draw this generator cannot build: draw again
                error = exc
                continue
            last = (number - 1, row)
            if not _item_keys(row) & taken:
                break
        if last is None:
            raise AssertionError(f"row {idx}: no fresh draw builds: {error!r}")
        self.used[idx] = last[0]
        return last[1]

    def proved(self, idx: int, row: dict[str, Any], prove: Callable[[Any], None]) -> bool:
        """Whether ``prove`` accepts the row, run under the draw number that built it."""
        try:
            with seeds.redraw(self.used[idx]):
                prove(row)
        except AssertionError:
            return False
        return True


def fresh_rows(
    generate: Callable[[random.Random, int], dict[str, Any]],
    prove: Callable[[dict[str, Any]], None],
    prove_all: Callable[[list[dict[str, Any]]], None] | None,
    seed: int,
    count: int,
    published: Path,
) -> list[dict[str, Any]]:
    """Rows of a fresh instance, proved. Row ``idx`` keeps its ``idx`` (so its family and
    difficulty) and is drawn again, from the next stream, while the draw cannot be built, repeats a
    published item or an earlier row, fails ``prove``, or is named second in a duplicate that
    ``prove_all`` reports through :func:`lib.assert_unique`, up to ``FRESH_REDRAWS`` draws per row.
    (A generator that caches by row id may then fail its proof: use another seed.) A published
    dataset never comes here, so none of this can change its bytes."""
    public: set[str] = set()
    if published.is_file():
        for line in published.read_text(encoding="utf-8").splitlines():
            public |= _item_keys(json.loads(line))
    redraw = _Redraw(generate, seed)

    def settle(idx: int, taken: set[str]) -> dict[str, Any]:
        while True:
            row = redraw.next(idx, taken)
            if redraw.proved(idx, row, prove):
                return row
            if redraw.draws[idx] >= FRESH_REDRAWS:
                prove(row)  # raises the proof's own message
                return row

    rows: list[dict[str, Any]] = []
    taken = set(public)
    for idx in range(count):
        rows.append(settle(idx, taken))
        taken |= _item_keys(rows[-1])
    while prove_all is not None:
        try:
            prove_all(rows)
            break
        except AssertionError as exc:
            match = re.fullmatch(r"duplicate .+: rows \S+ and (\S+)", str(exc))
            ids = [row["id"] for row in rows]
            if not match or match.group(1) not in ids:
                raise
            idx = ids.index(match.group(1))
            if redraw.draws[idx] >= FRESH_REDRAWS:
                raise
            others = set(public).union(*(_item_keys(r) for i, r in enumerate(rows) if i != idx))
            rows[idx] = settle(idx, others)
    return rows
