"""Several replicas behind one model: weights, health and failover (issue 23).

``model.base_url`` may list replicas, each a URL or ``{url, weight}``. Requests go to them in a
fixed weighted order — smooth weighted round-robin (nginx's), so with weights 3 and 1 every four
requests send three to the first and one to the second, interleaved; with equal weights it is
plain round-robin by item — and attempt k of a request goes to the next replica in that order.

A replica is **taken out** when it cannot be reached before the run (the start-up check) or when a
request to it fails on the connection (refused, reset, no response, a stream broken off): the
server process died or is restarting. Its requests in flight then, and any later one it would have
had, are sent again to another replica at once — a **failover**, which spends none of the
request's retry budget (the request was not at fault) and is tried at most once per replica; the
journal keeps one record per request, naming in ``failover`` the replicas that failed it. A
replica taken out is tried again after a cool-down (1 s, doubling to 30 s while it stays down):
a ``GET /models`` health check, in the background, puts it back once it answers. With every
replica out, requests are sent anyway (and retried as usual), so a run spoiled by an outage
still ends with exit code 3 rather than waiting. State is per sending process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

COOL_DOWN_S = 1.0
MAX_COOL_DOWN_S = 30.0
WHEEL = 1200
"""Length of the precomputed weighted order (a multiple of the replica count)."""


def weighted_order(weights: list[float], length: int) -> list[int]:
    """Smooth weighted round-robin: at each step every replica gains its weight, the one with
    the most (the first on a tie) is picked and gives back the total."""
    current = [0.0] * len(weights)
    total = sum(weights)
    order = []
    for _ in range(length):
        for i, weight in enumerate(weights):
            current[i] += weight
        pick = max(range(len(weights)), key=lambda i: (current[i], -i))
        current[pick] -= total
        order.append(pick)
    return order


@dataclass
class Replicas:
    """The chat URLs of one endpoint and what this process knows of their health."""

    urls: list[str]
    weights: list[float] = field(default_factory=list)
    health: list[str] = field(default_factory=list)
    """Health-check URL of each replica (``.../models``)."""
    down: dict[int, float] = field(default_factory=dict)
    """Replicas taken out, with when they may be checked again (``time.monotonic``)."""
    cool_down: dict[int, float] = field(default_factory=dict)
    checking: set[int] = field(default_factory=set)
    """Replicas whose health check is running."""

    def __post_init__(self) -> None:
        self.weights = self.weights or [1.0] * len(self.urls)
        length = len(self.urls) * max(1, -(-WHEEL // len(self.urls)))
        self._order = weighted_order(self.weights, length)

    def pick(self, turn: int, avoid: set[int]) -> int:
        """The replica for attempt ``turn`` of the weighted order, skipping those taken out or
        in ``avoid``; when none is left, the order's own pick."""
        start = turn % len(self._order)
        for step in range(len(self._order)):
            index = self._order[(start + step) % len(self._order)]
            if index not in self.down and index not in avoid:
                return index
        return self._order[start]

    def others_up(self, exclude: set[int]) -> bool:
        return any(i not in self.down and i not in exclude for i in range(len(self.urls)))

    def take_out(self, index: int) -> None:
        if index in self.down:
            return
        wait = self.cool_down.get(index, COOL_DOWN_S / 2) * 2
        self.cool_down[index] = min(wait, MAX_COOL_DOWN_S)
        self.down[index] = time.monotonic() + self.cool_down[index]

    def back(self, index: int) -> None:
        """A health check answered: the replica is in the order again."""
        self.down.pop(index, None)
        self.cool_down.pop(index, None)

    def due(self) -> list[int]:
        """Replicas out whose cool-down is over and whose check is not running yet."""
        now = time.monotonic()
        due = [i for i, at in self.down.items() if at <= now and i not in self.checking]
        self.checking.update(due)
        return due

    def checked(self, index: int, healthy: bool) -> None:
        self.checking.discard(index)
        if healthy:
            self.back(index)
        else:
            self.down.pop(index, None)
            self.take_out(index)
