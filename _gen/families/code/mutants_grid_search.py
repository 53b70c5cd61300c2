"""eval-code-v3: the grid search families of eval-code-v2 (``grid_search``) with their mutants and
the hidden inputs that kill them (see ``mutation``).
"""

from __future__ import annotations

import random

from families.code import grid_search
from families.code.base import src
from families.code.grids import random_grid
from families.code.mutation import Strong, edit, param, strengthen


def largest_region(rng: random.Random, v: int) -> Strong:
    t = grid_search.largest_region(rng, v)
    return strengthen(
        t,
        [(["#.##", "..##"],), (["#..#"],), (random_grid(rng, 5, 5, "#.", (1, 1)),)],
        [
            ("the other kind of neighbours", t.wrong),
            ("counts the regions", edit(t.reference, ("best = max(best, size)", "best += 1"))),
            (
                "the size of the first region found",
                edit(t.reference, ("best = max(best, size)", "best = best or size")),
            ),
            (
                "negative indices wrap around the edges",
                edit(
                    t.reference,
                    (
                        "if 0 <= ny < len(grid) and 0 <= nx < len(row):",
                        "if ny < len(grid) and nx < len(row):",
                    ),
                ),
            ),
            (
                "counts every '#'",
                src("""
                def largest_region(grid: list[str]) -> int:
                    return sum(row.count("#") for row in grid)
            """),
            ),
        ],
    )


def cheapest_path(rng: random.Random, v: int) -> Strong:
    t = grid_search.cheapest_path(rng, v)
    mud = param(t.reference, r"step = (\d+) if")
    fewest_steps = f"""
        from collections import deque

        def cheapest_path(grid: list[str]) -> int:
            cells = {{(r, c): ch for r, row in enumerate(grid) for c, ch in enumerate(row)}}
            start = next(p for p, ch in cells.items() if ch == "S")
            cost = {{start: 0}}
            queue = deque([start])
            while queue:
                r, c = queue.popleft()
                if cells[(r, c)] == "E":
                    return cost[(r, c)]
                for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    ch = cells.get(nxt, "#")
                    if ch != "#" and nxt not in cost:
                        cost[nxt] = cost[(r, c)] + ({mud} if ch == "~" else 1)
                        queue.append(nxt)
            return -1
    """
    moves = "((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))"
    diagonal = moves[:-1] + ", (r + 1, c + 1), (r + 1, c - 1), (r - 1, c + 1), (r - 1, c - 1))"
    maze = random_grid(rng, 4, 6, ".~#", (4, 2, 2))
    maze[0], maze[-1] = "S" + maze[0][1:], maze[-1][:-1] + "E"
    return strengthen(
        t,
        [(["S.", ".E"],), (["S~", "~E"],), (maze,)],
        [
            ("mud costs 1", t.wrong),
            ("the cost of the walk with the fewest steps", src(fewest_steps)),
            (
                "moves diagonally too",
                edit(t.reference, (f"for nxt in {moves}:", f"for nxt in {diagonal}:")),
            ),
            ("walks through walls", edit(t.reference, ('if ch == "#":', "if nxt not in cells:"))),
            ("0 when E cannot be reached", edit(t.reference, ("    return -1", "    return 0"))),
        ],
    )


def largest_square(rng: random.Random, v: int) -> Strong:
    t = grid_search.largest_square(rng, v)
    mark = param(t.reference, r'if ch == "(.)":')
    other = "0" if mark == "1" else "."
    longest_run = f"""
        def largest_square(grid: list[str]) -> int:
            return max((len(run) for row in grid for run in row.split("{other}")), default=0)
    """
    return strengthen(
        t,
        [([mark * 3, mark * 3, other * 3],), (random_grid(rng, 5, 5, mark + other, (3, 1)),)],
        [
            ("forgets the diagonal neighbour", t.wrong),
            ("returns the area", edit(t.reference, ("    return best", "    return best * best"))),
            ("the longest run in a row", src(longest_run)),
        ],
    )


FAMILIES = [
    largest_region,
    cheapest_path,
    largest_square,
]
