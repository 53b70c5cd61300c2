"""eval-code-v3: the grid and matrix families of eval-code-v2 (``grids``) with their mutants and
the hidden inputs that kill them (see ``mutation``).

border_sum is code2-0053's defect: every -v2 hidden matrix had one or two rows or columns, so no
element was off the border and summing the whole matrix passed; here hidden matrices have an
interior (a fixed 3 x 3 one with a large centre, and a seeded 4 x 5).
"""

from __future__ import annotations

import random

from families.code import grids
from families.code.base import ints, src
from families.code.mutation import Strong, edit, param, strengthen


def matrix(rng: random.Random, rows: int, cols: int) -> list[list[int]]:
    return [ints(rng, cols, -9, 20) for _ in range(rows)]


def diagonal_sum(rng: random.Random, v: int) -> Strong:
    t = grids.diagonal_sum(rng, v)
    odd = matrix(rng, 5, 5)
    odd[2][2] = rng.randint(1, 9)
    return strengthen(
        t,
        [([[1, 2], [3, 4]],), (odd,)],
        [
            ("counts the centre twice", t.wrong),
            (
                "the main diagonal only",
                src("""
                def diagonal_sum(m: list[list[int]]) -> int:
                    return sum(m[i][i] for i in range(len(m)))
            """),
            ),
            ("takes a centre off even sizes too", edit(t.reference, ("if n % 2 == 1:", "if n:"))),
            ("fails on the empty matrix", edit(t.reference, ("n = len(m)", "n = len(m[0])"))),
        ],
    )


def rotate_grid(rng: random.Random, v: int) -> Strong:
    t = grids.rotate_grid(rng, v)
    head = "def rotate_grid(grid: list[str]) -> list[str]:\n"
    unguarded = """
        def rotate_grid(grid: list[str]) -> list[str]:
            rows, cols = len(grid), len(grid[0])
            return ["".join(@CELL for r in range(rows)) for c in range(cols)]
    """
    cell = "grid[rows - 1 - r][c]" if "grid[::-1]" in t.reference else "grid[r][cols - 1 - c]"
    return strengthen(
        t,
        [(["abc", "def"],), (grids.random_grid(rng, 3, 4, "xyz#", (1, 1, 1, 1)),)],
        [
            ("turns the other way", t.wrong),
            ("transposes only", head + '    return ["".join(col) for col in zip(*grid)]\n'),
            ("a half turn", head + "    return [row[::-1] for row in grid[::-1]]\n"),
            ("mirrors left to right", head + "    return [row[::-1] for row in grid]\n"),
            ("fails on the empty grid", src(unguarded, CELL=cell)),
        ],
    )


def border_sum(rng: random.Random, v: int) -> Strong:
    t = grids.border_sum(rng, v)
    corners_twice = """
        def border_sum(m: list[list[int]]) -> int:
            return sum(m[0]) + sum(m[-1]) + sum(r[0] for r in m) + sum(r[-1] for r in m)
    """
    rows_only = """
        def border_sum(m: list[list[int]]) -> int:
            return sum(m[0]) + (sum(m[-1]) if len(m) > 1 else 0)
    """
    one_row = """
        def border_sum(m: list[list[int]]) -> int:
            if len(m) == 1:
                return sum(m[0])
            return sum(m[0]) + sum(m[-1]) + sum(r[0] + r[-1] for r in m[1:-1])
    """
    return strengthen(
        t,
        [([[1, 2, 3], [4, 100, 6], [7, 8, 9]],), ([[1], [2], [3], [4]],), (matrix(rng, 4, 5),)],
        [
            ("counts a single row twice", t.wrong),
            (
                "sums the whole matrix, not its border",
                src("""
                def border_sum(m: list[list[int]]) -> int:
                    return sum(sum(row) for row in m)
            """),
            ),
            ("counts the corners twice", src(corners_twice)),
            ("the first and last rows only", src(rows_only)),
            ("counts a single column twice", src(one_row)),
        ],
    )


def spiral_order(rng: random.Random, v: int) -> Strong:
    t = grids.spiral_order(rng, v)
    flip = "    m = [list(col) for col in zip(*m)]\n"
    other_way = (
        edit(t.reference, (flip, ""))
        if flip in t.reference
        else edit(t.reference, ("    out = []\n", flip + "    out = []\n"))
    )
    return strengthen(
        t,
        [
            ([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]],),
            ([[1, 2], [3, 4], [5, 6]],),
        ]
        + [(matrix(rng, 4, 3),)],
        [
            ("walks a single row back", t.wrong),
            (
                "walks a single column back",
                edit(t.reference, ("        if left <= right:\n", "        if True:\n")),
            ),
            (
                "row by row",
                src("""
                def spiral_order(m: list[list[int]]) -> list[int]:
                    return [x for row in m for x in row]
            """),
            ),
            ("turns the other way", other_way),
        ],
    )


def life_step(rng: random.Random, v: int) -> Strong:
    t = grids.life_step(rng, v)
    survive = param(t.reference, r"n in (\(.*?\)) if alive")
    born = param(t.reference, r"else n in (\(.*?\))\)")
    in_place = f"""
        def life_step(grid: list[str]) -> list[str]:
            rows, cols = len(grid), len(grid[0])
            cells = [list(row) for row in grid]
            for r in range(rows):
                for c in range(cols):
                    n = sum(
                        cells[r + dr][c + dc] == "#"
                        for dr in (-1, 0, 1)
                        for dc in (-1, 0, 1)
                        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
                    )
                    alive = cells[r][c] == "#"
                    cells[r][c] = "#" if (n in {survive} if alive else n in {born}) else "."
            return ["".join(row) for row in cells]
    """
    standard = (survive, born) == ("(2, 3)", "(3,)")
    return strengthen(
        t,
        [(["###", "#.#", "#.."],), (["##", ".."],), ([".#.", ".#.", ".#."],)]
        + [(grids.random_grid(rng, 5, 5, "#.", (2, 3)),)],
        [
            ("wraps around the edges", t.wrong),
            ("counts the cell itself", edit(t.reference, ("if (dr or dc) and 0 <=", "if 0 <="))),
            ("updates the grid in place", src(in_place)),
            (
                "the 4 side neighbours only",
                edit(t.reference, ("if (dr or dc) and", "if abs(dr) + abs(dc) == 1 and")),
            ),
            (
                "the rules of the standard Game of Life",
                None
                if standard
                else edit(
                    t.reference,
                    (f"{survive} if alive else n in {born}", "(2, 3) if alive else n in (3,)"),
                ),
            ),
        ],
    )


def count_word(rng: random.Random, v: int) -> Strong:
    t = grids.count_word(rng, v)
    diagonals = "(1, 1)" in t.reference
    dirs = param(t.reference, r"for dr, dc in \((.*)\):")
    straight = "(0, 1), (1, 0), (0, -1), (-1, 0)"
    slanted = ", (1, 1), (1, -1), (-1, 1), (-1, -1)"
    lines = (
        """
            for k in range(-rows, cols):
                lines.append("".join(grid[r][r + k] for r in range(rows) if 0 <= r + k < cols))
            for k in range(rows + cols):
                lines.append("".join(grid[r][k - r] for r in range(rows) if 0 <= k - r < cols))
        """
        if diagonals
        else ""
    )
    by_count = """
        def count_word(grid: list[str], word: str) -> int:
            rows, cols = len(grid), len(grid[0])
            lines = list(grid) + ["".join(col) for col in zip(*grid)]
            @LINES
            return sum(line.count(word) + line[::-1].count(word) for line in lines)
    """
    once = edit(
        t.reference,
        ("count = 0", "found = set()"),
        ("count += 1", "found.add(frozenset(cells))"),
        ("return count", "return len(found)"),
    )
    return strengthen(
        t,
        [(["zzz", "abc"], "zz"), (grids.random_grid(rng, 4, 4, "ab", (1, 1)), "aba")],
        [
            ("reads forwards only", t.wrong),
            ("counts a palindrome once", once),
            (
                "str.count, which misses overlapping places",
                src(by_count, LINES=lines.strip().replace("\n            ", "\n    ")),
            ),
            (
                "no diagonals" if diagonals else "diagonals too",
                edit(t.reference, (dirs, straight if diagonals else straight + slanted)),
            ),
        ],
    )


FAMILIES = [
    diagonal_sum,
    rotate_grid,
    border_sum,
    spiral_order,
    life_step,
    count_word,
]
