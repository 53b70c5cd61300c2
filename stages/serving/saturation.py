"""Stopping an open-loop level early when the server is over-saturated (issue 23).

Offered more than it can serve, a server's queue grows without bound: every request waits
longer than the one before, the level's goodput share can only fall, and sending the rest of the
schedule only lengthens the run (a search for the highest good rate tries such levels on purpose).
Below capacity the number of requests in flight fluctuates around the offered rate times the
latency (Little's law) and does not trend.

So the sending parent samples the backlog — requests due by the schedule minus requests finished,
which counts the client's own lag too — every 0.1 s. The level is **over-saturated** when, over the
last ``WINDOW_S`` seconds (at least ``MIN_SAMPLES`` samples, after ``MIN_DUE`` requests were due),
the least-squares slope of the backlog implies a rise of at least ``max(MIN_RISE, RISE_SHARE ×
the mean backlog)`` over the window, at ``CONFIRM`` checks in a row. A stable queue's slope is
zero up to noise (its rise over a window is of the order of the square root of its size); a
queue that gains half its size every second is not stable. Multi-turn levels are not watched
(a session's later turns are not on the schedule).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

WINDOW_S = 1.0
MIN_SAMPLES = 8
MIN_DUE = 20
MIN_RISE = 8.0
RISE_SHARE = 0.5
CONFIRM = 3


@dataclass
class SaturationWatch:
    """Called with (seconds since the level's clock start, requests finished so far)."""

    offsets_s: list[float]
    """Scheduled send of every entry to be sent, from the clock start, sorted."""
    samples: list[tuple[float, float]] = field(default_factory=list)
    streak: int = 0
    stopped_at_s: float | None = None
    """When the watch stopped the level (None: it ran to the end)."""

    def __call__(self, elapsed_s: float, finished: int) -> bool:
        due = bisect.bisect_right(self.offsets_s, elapsed_s)
        self.samples.append((elapsed_s, float(due - finished)))
        window = [(t, b) for t, b in self.samples if t >= elapsed_s - WINDOW_S]
        if due < MIN_DUE or len(window) < MIN_SAMPLES:
            return False
        rise = _slope(window) * WINDOW_S
        mean = sum(b for _, b in window) / len(window)
        self.streak = self.streak + 1 if rise >= max(MIN_RISE, RISE_SHARE * mean) else 0
        if self.streak >= CONFIRM and self.stopped_at_s is None:
            self.stopped_at_s = round(elapsed_s, 3)
        return self.stopped_at_s is not None


def _slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_b = sum(b for _, b in points) / n
    spread = sum((t - mean_t) ** 2 for t, _ in points)
    if spread <= 0:
        return 0.0
    return sum((t - mean_t) * (b - mean_b) for t, b in points) / spread
