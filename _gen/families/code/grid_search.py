"""Grid search task families for eval-code-v2, in the "grids" category with ``grids``:
regions, cheapest walks and squares (task shape in ``base``; ``inputs[1]`` is the prompt's
worked example, the rest are hidden tests). Grids are lists of equal-length strings.
"""

from __future__ import annotations

import itertools
import random

from families.code.base import Task, mutate, src, task
from families.code.grids import random_grid


def largest_region(rng: random.Random, v: int) -> Task:
    eight = rng.random() < 0.5
    four = "((1, 0), (-1, 0), (0, 1), (0, -1))"
    steps8 = "[(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]"
    body = """
        def largest_region(grid: list[str]) -> int:
            seen, best = set(), 0
            for r, row in enumerate(grid):
                for c, ch in enumerate(row):
                    if ch != "#" or (r, c) in seen:
                        continue
                    seen.add((r, c))
                    stack, size = [(r, c)], 0
                    while stack:
                        y, x = stack.pop()
                        size += 1
                        for dy, dx in @STEPS:
                            ny, nx = y + dy, x + dx
                            if 0 <= ny < len(grid) and 0 <= nx < len(row):
                                if grid[ny][nx] == "#" and (ny, nx) not in seen:
                                    seen.add((ny, nx))
                                    stack.append((ny, nx))
                    best = max(best, size)
            return best
    """

    def oracle(grid: list[str]) -> int:
        cells = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "#"]
        parent = {cell: cell for cell in cells}

        def root(cell: tuple[int, int]) -> tuple[int, int]:
            while parent[cell] != cell:
                cell = parent[cell]
            return cell

        for (r1, c1), (r2, c2) in itertools.combinations(cells, 2):
            if abs(r1 - r2) + abs(c1 - c2) == 1 or (eight and max(abs(r1 - r2), abs(c1 - c2)) == 1):
                parent[root((r1, c1))] = root((r2, c2))
        sizes = [root(cell) for cell in cells]
        return max((sizes.count(s) for s in set(sizes)), default=0)

    inputs = [(["...", "..."],), (random_grid(rng, 4, 5, "#.", (1, 1)),), (["#.#", ".#.", "#.#"],)]
    inputs += [(random_grid(rng, 6, 6, "#.", (3, 2)),), (["##", "##"],)]
    which = "8 neighbours (sides and corners)" if eight else "4 neighbours (up, down, left, right)"
    return task(
        "grids",
        "medium",
        "def largest_region(grid: list[str]) -> int",
        "grid is a list of equal-length strings of '#' and '.'. Two '#' cells belong to the same "
        f"region when one can walk from one to the other through '#' cells, each step going to "
        f"one of the {which}. Return the number of cells in the largest region (0 if there is "
        "no '#').",
        src(body, STEPS=steps8 if eight else four),
        src(body, STEPS=four if eight else steps8),
        inputs,
        oracle,
    )


def cheapest_path(rng: random.Random, v: int) -> Task:
    mud = rng.choice((3, 4, 5))
    body = """
        import heapq

        def cheapest_path(grid: list[str]) -> int:
            cells = {(r, c): ch for r, row in enumerate(grid) for c, ch in enumerate(row)}
            start = next(p for p, ch in cells.items() if ch == "S")
            best = {start: 0}
            queue = [(0, start)]
            while queue:
                cost, (r, c) = heapq.heappop(queue)
                if cells[(r, c)] == "E":
                    return cost
                if cost > best[(r, c)]:
                    continue
                for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    ch = cells.get(nxt, "#")
                    if ch == "#":
                        continue
                    step = @MUD if ch == "~" else 1
                    if cost + step < best.get(nxt, cost + step + 1):
                        best[nxt] = cost + step
                        heapq.heappush(queue, (cost + step, nxt))
            return -1
    """

    def oracle(grid: list[str]) -> int:
        cells = {(r, c): ch for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"}
        cost = {p: (0 if ch == "S" else 10**9) for p, ch in cells.items()}
        for _ in range(len(cells)):  # Bellman-Ford: relax every move len(cells) times
            for r, c in cells:
                for p in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if p in cells:
                        step = mud if cells[p] == "~" else 1
                        cost[p] = min(cost[p], cost[(r, c)] + step)
        end = next(p for p, ch in cells.items() if ch == "E")
        return cost[end] if cost[end] < 10**9 else -1

    def maze() -> list[str]:
        rows = random_grid(rng, 5, 6, ".~#", (4, 2, 2))
        rows[0] = "S" + rows[0][1:]
        rows[-1] = rows[-1][:-1] + "E"
        return rows

    detour = ["S~~E", "....", "...."]
    inputs = [(["S#E"],), (maze(),), (detour,), (maze(),), (["SE"],), (maze(),)]
    return task(
        "grids",
        "hard",
        "def cheapest_path(grid: list[str]) -> int",
        "grid is a list of equal-length strings with exactly one 'S' (start) and one 'E' (end); "
        "'#' is a wall, '.' open ground and '~' mud. You move one step at a time up, down, left "
        f"or right, never through walls or off the grid. Entering a '~' cell costs {mud}; "
        "entering any other cell ('.', 'S' or 'E') costs 1. Return the lowest total cost of a "
        "walk from S to E, or -1 if E cannot be reached.",
        src(body, MUD=mud),
        mutate(src(body, MUD=mud), f"step = {mud} if", "step = 1 if"),
        inputs,
        oracle,
    )


def largest_square(rng: random.Random, v: int) -> Task:
    mark = rng.choice("#1")
    body = """
        def largest_square(grid: list[str]) -> int:
            best = 0
            size = [[0] * (len(grid[0]) + 1) for _ in range(len(grid) + 1)]
            for r, row in enumerate(grid, 1):
                for c, ch in enumerate(row, 1):
                    if ch == "@M":
                        size[r][c] = min(size[r - 1][c], size[r][c - 1], size[r - 1][c - 1]) + 1
                        best = max(best, size[r][c])
            return best
    """

    def oracle(grid: list[str]) -> int:
        rows, cols = len(grid), len(grid[0]) if grid else 0
        return max(
            (
                k
                for r in range(rows)
                for c in range(cols)
                for k in range(1, min(rows - r, cols - c) + 1)
                if all(grid[r + i][c + j] == mark for i in range(k) for j in range(k))
            ),
            default=0,
        )

    other = "0" if mark == "1" else "."
    fill = mark + other
    trap = [row.replace("1", mark).replace("0", other) for row in ("011", "111", "111")]
    inputs = [([other * 3],), (random_grid(rng, 5, 6, fill, (3, 1)),), (trap,)]
    inputs += [(random_grid(rng, 6, 6, fill, (4, 1)),), ([mark],)]
    return task(
        "grids",
        "hard",
        "def largest_square(grid: list[str]) -> int",
        f"grid is a non-empty list of equal-length strings of '{mark}' and '{other}'. Return "
        f"the side length of the largest square block of cells that are all '{mark}' (0 if "
        "there is none).",
        src(body, M=mark),
        mutate(src(body, M=mark), ", size[r - 1][c - 1])", ")"),
        inputs,
        oracle,
    )


FAMILIES = [
    largest_region,
    cheapest_path,
    largest_square,
]
