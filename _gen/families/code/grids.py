"""Grid and matrix task families for eval-code-v2, in the "grids" category with
``grid_search`` (task shape in ``base``; ``inputs[1]`` is the prompt's worked
example, the rest are hidden tests). Grids are lists of equal-length strings, matrices lists of
equal-length lists of ints; results are lists, never tuples.
"""

from __future__ import annotations

import random

from families.code.base import Task, ints, mutate, src, task


def _matrix(rng: random.Random, rows: int, cols: int) -> list[list[int]]:
    return [ints(rng, cols, -9, 20) for _ in range(rows)]


def random_grid(
    rng: random.Random, rows: int, cols: int, cells: str, weights: tuple[int, ...]
) -> list[str]:
    return ["".join(rng.choices(cells, weights, k=cols)) for _ in range(rows)]


def diagonal_sum(rng: random.Random, v: int) -> Task:
    body = """
        def diagonal_sum(m: list[list[int]]) -> int:
            n = len(m)
            total = sum(m[i][i] + m[i][n - 1 - i] for i in range(n))
            if n % 2 == 1:
                total -= m[n // 2][n // 2]
            return total
    """

    def oracle(m: list[list[int]]) -> int:
        n = len(m)
        cells = {(i, i) for i in range(n)} | {(i, n - 1 - i) for i in range(n)}
        return sum(m[r][c] for r, c in cells)

    sizes = [rng.choice((4, 5)), 3, rng.choice((2, 6)), 1]
    inputs = [([],), *((_matrix(rng, n, n),) for n in sizes)]
    for fixed in (inputs[2][0], inputs[4][0]):  # the centre, counted once, must matter
        fixed[len(fixed) // 2][len(fixed) // 2] = rng.randint(1, 9)
    return task(
        "grids",
        "easy",
        "def diagonal_sum(m: list[list[int]]) -> int",
        "m is a square matrix given as a list of rows (possibly empty). Return the sum of the "
        "elements on its two diagonals (top-left to bottom-right and top-right to bottom-left); "
        "an element on both diagonals is counted once.",
        src(body),
        mutate(src(body), "    if n % 2 == 1:\n        total -= m[n // 2][n // 2]\n", ""),
        inputs,
        oracle,
    )


def rotate_grid(rng: random.Random, v: int) -> Task:
    clockwise = rng.random() < 0.5
    cw = '    return ["".join(col) for col in zip(*grid[::-1])]\n'
    ccw = '    return ["".join(col) for col in zip(*grid)][::-1]\n'
    head = "def rotate_grid(grid: list[str]) -> list[str]:\n"

    def oracle(grid: list[str]) -> list[str]:
        rows, cols = len(grid), len(grid[0]) if grid else 0
        if clockwise:
            return ["".join(grid[rows - 1 - r][c] for r in range(rows)) for c in range(cols)]
        return ["".join(grid[r][cols - 1 - c] for r in range(rows)) for c in range(cols)]

    inputs = [([],), (random_grid(rng, 2, 4, "ab#.", (1, 1, 1, 1)),), (["ab", "cd"],)]
    inputs += [(random_grid(rng, 3, 2, "xyz", (1, 1, 1)),), (["abc"],)]
    return task(
        "grids",
        "easy",
        "def rotate_grid(grid: list[str]) -> list[str]",
        "grid is a rectangle of characters given as a list of equal-length strings (its rows, "
        "top to bottom). Return the grid rotated a quarter turn "
        f"{'clockwise' if clockwise else 'counterclockwise'}, in the same form ([] stays []).",
        head + (cw if clockwise else ccw),
        head + (ccw if clockwise else cw),
        inputs,
        oracle,
    )


def border_sum(rng: random.Random, v: int) -> Task:
    body = """
        def border_sum(m: list[list[int]]) -> int:
            rows, cols = len(m), len(m[0])
            return sum(
                m[r][c]
                for r in range(rows)
                for c in range(cols)
                if r in (0, rows - 1) or c in (0, cols - 1)
            )
    """
    wrong = """
        def border_sum(m: list[list[int]]) -> int:
            return sum(m[0]) + sum(m[-1]) + sum(r[0] for r in m[1:-1]) + sum(r[-1] for r in m[1:-1])
    """

    def oracle(m: list[list[int]]) -> int:
        edge = {(0, c) for c in range(len(m[0]))} | {(len(m) - 1, c) for c in range(len(m[0]))}
        edge |= {(r, 0) for r in range(len(m))} | {(r, len(m[0]) - 1) for r in range(len(m))}
        return sum(m[r][c] for r, c in edge)

    shapes = [(rng.randint(3, 5), rng.randint(3, 5)), (1, 4), (rng.randint(2, 6), 1), (1, 1)]
    inputs = [([[5]],), *((_matrix(rng, r, c),) for r, c in shapes)]
    inputs[4] = ([[2, 3, 4]],)
    return task(
        "grids",
        "easy",
        "def border_sum(m: list[list[int]]) -> int",
        "m is a non-empty rectangular matrix (a list of equal-length rows of integers). Return "
        "the sum of the elements on its outer border: the first and last rows and the first and "
        "last columns. Each element counts once, even when the matrix has a single row or column.",
        src(body),
        src(wrong),
        inputs,
        oracle,
    )


def spiral_order(rng: random.Random, v: int) -> Task:
    down_first = rng.random() < 0.5
    body = """
        def spiral_order(m: list[list[int]]) -> list[int]:
            @FLIP
            out = []
            if not m:
                return out
            top, bottom, left, right = 0, len(m) - 1, 0, len(m[0]) - 1
            while top <= bottom and left <= right:
                out += [m[top][c] for c in range(left, right + 1)]
                top += 1
                out += [m[r][right] for r in range(top, bottom + 1)]
                right -= 1
                if top <= bottom:
                    out += [m[bottom][c] for c in range(right, left - 1, -1)]
                    bottom -= 1
                if left <= right:
                    out += [m[r][left] for r in range(bottom, top - 1, -1)]
                    left += 1
            return out
    """
    flip = "m = [list(col) for col in zip(*m)]" if down_first else ""

    def oracle(m: list[list[int]]) -> list[int]:
        if not m:
            return []
        rows, cols = len(m), len(m[0])
        turns = (
            [(1, 0), (0, 1), (-1, 0), (0, -1)] if down_first else [(0, 1), (1, 0), (0, -1), (-1, 0)]
        )
        seen, out, r, c, d = set(), [], 0, 0, 0
        for _ in range(rows * cols):
            out.append(m[r][c])
            seen.add((r, c))
            nr, nc = r + turns[d][0], c + turns[d][1]
            if not (0 <= nr < rows and 0 <= nc < cols) or (nr, nc) in seen:
                d = (d + 1) % 4
                nr, nc = r + turns[d][0], c + turns[d][1]
            r, c = nr, nc
        return out

    inputs = [([],), (_matrix(rng, 3, 4),), ([[1, 2, 3]],), ([[1], [2], [3]],)]
    inputs += [(_matrix(rng, rng.randint(2, 5), rng.randint(2, 5)),)]
    path = (
        "down the first column, then right along the bottom row, up the last column, left "
        "along the top row"
        if down_first
        else "right along the top row, then down the last column, left along the bottom row, "
        "up the first column"
    )
    return task(
        "grids",
        "medium",
        "def spiral_order(m: list[list[int]]) -> list[int]",
        "m is a rectangular matrix (a list of equal-length rows; [] is allowed). Return its "
        f"elements in spiral order starting at the top-left corner: {path}, and so on inwards, "
        "visiting every element exactly once.",
        src(body, FLIP=flip),
        mutate(src(body, FLIP=flip), "        if top <= bottom:\n", "        if True:\n"),
        inputs,
        oracle,
    )


def life_step(rng: random.Random, v: int) -> Task:
    born, survive = rng.choice((((3,), (2, 3)), ((3, 6), (2, 3)), ((3,), (1, 2, 3))))
    body = """
        def life_step(grid: list[str]) -> list[str]:
            rows, cols = len(grid), len(grid[0])
            out = []
            for r in range(rows):
                line = ""
                for c in range(cols):
                    n = sum(
                        grid[r + dr][c + dc] == "#"
                        for dr in (-1, 0, 1)
                        for dc in (-1, 0, 1)
                        if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
                    )
                    alive = grid[r][c] == "#"
                    line += "#" if (n in @S if alive else n in @B) else "."
                out.append(line)
            return out
    """
    wrap = mutate(
        src(body, S=survive, B=born),
        'grid[r + dr][c + dc] == "#"',
        'grid[(r + dr) % rows][(c + dc) % cols] == "#"',
    ).replace(" and 0 <= r + dr < rows and 0 <= c + dc < cols", "")

    def oracle(grid: list[str]) -> list[str]:
        live = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "#"}
        rows, cols = len(grid), len(grid[0])

        def count(r: int, c: int) -> int:
            return len({(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)} & live - {(r, c)})

        return [
            "".join(
                "#" if count(r, c) in (survive if (r, c) in live else born) else "."
                for c in range(cols)
            )
            for r in range(rows)
        ]

    inputs = [(["..."],), (random_grid(rng, 4, 5, "#.", (2, 3)),), ([".###.", ".....", "....."],)]
    inputs += [(random_grid(rng, 6, 6, "#.", (1, 2)),), (["#"],)]
    return task(
        "grids",
        "medium",
        "def life_step(grid: list[str]) -> list[str]",
        "grid is a list of equal-length strings of '#' (live cell) and '.' (dead cell). Return "
        "the next generation of this cellular automaton, in the same form. A cell's neighbours "
        "are the up to 8 cells around it (sides and corners); cells outside the grid count as "
        f"dead, and the grid does not wrap around. A live cell stays alive when it has "
        f"{_either(survive)} live neighbours; a dead cell becomes alive when it has "
        f"{_either(born)}; every other cell is dead in the next generation.",
        src(body, S=survive, B=born),
        wrap,
        inputs,
        oracle,
    )


def _either(counts: tuple[int, ...]) -> str:
    words = [str(n) for n in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def count_word(rng: random.Random, v: int) -> Task:
    diagonals = rng.random() < 0.5
    straight = "(0, 1), (1, 0), (0, -1), (-1, 0)"
    slanted = ", (1, 1), (1, -1), (-1, 1), (-1, -1)"
    body = """
        def count_word(grid: list[str], word: str) -> int:
            count = 0
            for r in range(len(grid)):
                for c in range(len(grid[0])):
                    for dr, dc in (@DIRS):
                        cells = [(r + i * dr, c + i * dc) for i in range(len(word))]
                        if all(0 <= y < len(grid) and 0 <= x < len(grid[0]) for y, x in cells):
                            if "".join(grid[y][x] for y, x in cells) == word:
                                count += 1
            return count
    """
    dirs = straight + slanted if diagonals else straight
    wrong_dirs = "(0, 1), (1, 0), (1, 1), (1, -1)" if diagonals else "(0, 1), (1, 0)"

    def oracle(grid: list[str], word: str) -> int:
        rows, cols = len(grid), len(grid[0])
        lines = list(grid) + ["".join(col) for col in zip(*grid, strict=True)]
        if diagonals:
            for k in range(-rows, cols + rows):
                lines.append("".join(grid[r][r + k] for r in range(rows) if 0 <= r + k < cols))
                lines.append("".join(grid[r][k - r] for r in range(rows) if 0 <= k - r < cols))
        return sum(
            line[i : i + len(word)] == word
            for text in lines
            for line in (text, text[::-1])
            for i in range(len(line))
        )

    letters = random_grid(rng, 5, 5, "abt", (2, 2, 1))
    inputs = [(["ab", "cd"], "abc"), (letters, "ab"), (["tac", "xxx"], "cat"), (letters, "ta")]
    inputs += [(["aba", "bab", "aba"], "aba"), (["zz", "zz"], "zz")]
    where = (
        "in a straight line in any of the 8 directions: horizontally, vertically or "
        "diagonally, forwards or backwards"
        if diagonals
        else "in a straight line horizontally or vertically, forwards or backwards (not diagonally)"
    )
    return task(
        "grids",
        "hard",
        "def count_word(grid: list[str], word: str) -> int",
        "grid is a non-empty list of equal-length strings of letters and word has at least two "
        f"letters. Count the places where word can be read {where}. Each pair of starting cell "
        "and direction counts once, so a palindrome read both ways counts twice.",
        src(body, DIRS=dirs),
        src(body, DIRS=wrong_dirs),
        inputs,
        oracle,
    )


FAMILIES = [
    diagonal_sum,
    rotate_grid,
    border_sum,
    spiral_order,
    life_step,
    count_word,
]
