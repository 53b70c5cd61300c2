"""eval-code-v4: seeded inputs of the grid families (see ``inputs``)."""

from __future__ import annotations

import random

from families.code.base import Task
from families.code.inputs import Args, Builder, Inputs, numbers, reads, text


def _matrix(rows: int, cols: int, start: int = 1) -> list[list[int]]:
    """Distinct values, so the result shows which cells were used."""
    return [[start + r * cols + c for c in range(cols)] for r in range(rows)]


def _grid(rng: random.Random, cells: str, rows: int, cols: int) -> list[str]:
    return [text(rng, cells, cols, cols) for _ in range(rows)]


def _random_matrix(rng: random.Random, rows: int, cols: int) -> list[list[int]]:
    return [numbers(rng, cols, -20, 30) for _ in range(rows)]


def diagonal_sum(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        n = rng.randint(0, 7)
        return (_random_matrix(rng, n, n),)

    edges: list[Args] = [([],)] + [(_matrix(n, n),) for n in range(1, 8)]
    edges += [([[-4, 0, 3], [0, -9, 0], [2, 0, 1]],)]
    return Inputs(edges, draw)


def rotate_grid(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (_grid(rng, "ab#.xy", rng.randint(1, 5), rng.randint(1, 5)),)

    edges: list[Args] = [([],), (["a"],), (["ab"],), (["a", "b"],), (["abc", "def"],)]
    edges += [
        (["ab", "cd", "ef"],),
        (["abcde"],),
        (list("vwxyz"),),
        (["abcd", "efgh", "ijkl", "mnop"],),
    ]
    return Inputs(edges, draw)


def border_sum(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        return (_random_matrix(rng, rng.randint(1, 6), rng.randint(1, 6)),)

    shapes = [(1, 1), (1, 2), (2, 1), (1, 5), (5, 1), (2, 2), (2, 5), (3, 3), (4, 5), (6, 3)]
    edges: list[Args] = [(_matrix(r, c),) for r, c in shapes]
    edges += [([[-1, -2], [-3, -4], [-5, -6]],)]
    return Inputs(edges, draw)


def spiral_order(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        rows, cols = rng.randint(1, 6), rng.randint(1, 6)
        values = rng.sample(range(100), rows * cols)
        return ([values[r * cols : (r + 1) * cols] for r in range(rows)],)

    shapes = [(1, 1), (1, 4), (4, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 4), (3, 5), (5, 3)]
    edges: list[Args] = [([],)] + [(_matrix(r, c),) for r, c in shapes + [(4, 2), (2, 6), (5, 5)]]
    return Inputs(edges, draw)


def life_step(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        density = rng.choice(("#..", "#.", "##."))
        return (_grid(rng, density, rng.randint(1, 6), rng.randint(1, 6)),)

    edges: list[Args] = [(["#"],), (["."],), (["##", "##"],), ([".....", ".###.", "....."],)]
    edges += [([".#.", ".#.", ".#."],), (["###", "###", "###"],), (["#.#", ".#.", "#.#"],)]
    edges += [(["#.##.#"],), (list("#.##.#"),), (["##.", "#..", "..."],), (["#..", "...", "..#"],)]
    edges += [(["###", "#.#", "###"],), ([".##", "##.", ".#."],)]
    return Inputs(edges, draw)


def count_word(task: Task, v: int) -> Inputs:
    steps = [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)]

    def draw(rng: random.Random) -> Args:
        grid = _grid(rng, "aabt", rng.randint(1, 5), rng.randint(1, 5))
        size = rng.randint(2, 4)
        r, c = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
        dr, dc = rng.choice(steps)
        read = [grid[r + i * dr][c + i * dc] for i in range(size)
                if 0 <= r + i * dr < len(grid) and 0 <= c + i * dc < len(grid[0])]  # fmt: skip
        word = (
            "".join(read) if len(read) >= 2 and rng.random() < 0.7 else text(rng, "abt", size, size)
        )
        return (grid, word)

    edges: list[Args] = [(["ab", "cd"], "abc"), (["aba"], "aba"), (["a", "b", "a"], "aba")]
    edges += [(["ab", "ba"], "ab"), (["aaa", "aaa", "aaa"], "aa"), (["abc", "xbx", "xxc"], "abc")]
    edges += [(["cxx", "xbx", "xxa"], "abc"), (["xxc", "xbx", "axx"], "abc"), (["ab"], "ba")]
    edges += [(["tac", "xxx"], "cat"), (["t", "a", "c"], "cat"), (["xyz", "zyx"], "zz")]
    return Inputs(edges, draw)


def largest_region(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        density = rng.choice(("#.", "#..", "##."))
        return (_grid(rng, density, rng.randint(1, 7), rng.randint(1, 7)),)

    edges: list[Args] = [(["."],), (["#"],), (["#.", ".#"],), ([".#", "#."],), (["##", "##"],)]
    edges += [(["#.#", ".#.", "#.#"],), (["#####"],), (list("##.##"),), (["###", "#.#", "###"],)]
    edges += [(["#..", ".#.", "..#"],), (["#.#", "#.#", "###"],), (["...", "..."],)]
    return Inputs(edges, draw)


def cheapest_path(task: Task, v: int) -> Inputs:
    def draw(rng: random.Random) -> Args:
        rows, cols = rng.randint(1, 6), rng.randint(2, 6)
        cells = [list(text(rng, "...~~#", cols, cols)) for _ in range(rows)]
        start, end = rng.sample([(r, c) for r in range(rows) for c in range(cols)], 2)
        cells[start[0]][start[1]], cells[end[0]][end[1]] = "S", "E"
        return (["".join(row) for row in cells],)

    edges: list[Args] = [(["SE"],), (["ES"],), (["S#E"],), (["S", "E"],), (["S~E"],), (["S~~E"],)]
    edges += [([".~.", "S#E"],), (["S~E", "..."],), (["#S#", "###", "#E#"],), (["S~~E", "...."],)]
    edges += [(["E..", "~#.", "S.."],), (["S.~", "##.", "E~."],), (["S~", "~E"],)]
    return Inputs(edges, draw)


def largest_square(task: Task, v: int) -> Inputs:
    mark = reads(task, r'if ch == "(.)":')
    other = "0" if mark == "1" else "."

    def draw(rng: random.Random) -> Args:
        cells = rng.choice((mark * 3 + other, mark * 2 + other, mark + other))
        return (_grid(rng, cells, rng.randint(1, 7), rng.randint(1, 7)),)

    def g(*rows: str) -> Args:
        return ([row.replace("1", mark).replace("0", other) for row in rows],)

    edges = [g("0"), g("1"), g("000"), g("111"), g("1", "1", "1"), g("11", "11"), g("111", "111")]
    edges += [g("011", "111", "111"), g("110", "111", "011"), g("1111", "1111", "1111", "1110")]
    edges += [g("111", "101", "111"), g("10", "01")]
    return Inputs(edges, draw)


INPUTS: dict[str, Builder] = {
    f.__name__: f
    for f in (
        diagonal_sum, rotate_grid, border_sum, spiral_order, life_step, count_word,
        largest_region, cheapest_path, largest_square,
    )
}  # fmt: skip
