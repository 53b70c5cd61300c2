"""Progress output: plain lines when stderr is not a terminal, a rich bar when it is."""

from __future__ import annotations

import io
import re

import pytest

from stages.inference import progress


def test_plain_progress_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(progress.sys, "stderr", stream)
    monkeypatch.setattr(progress, "PLAIN_EVERY_S", 0.0)  # a line after every request
    with progress.Progress("w", total=2, skipped=3) as bar:
        bar.advance(failed=False)
        bar.advance(failed=True)
    lines = [line.split(", ") for line in stream.getvalue().splitlines()]
    assert lines[0] == ["w: 2 requests to send (3 already done)"]
    assert [[line[0], line[2]] for line in lines[1:]] == [
        ["w: 1/2 done", "0 failed"],
        ["w: 2/2 done", "1 failed"],
        ["w: 2/2 done", "1 failed"],
    ]
    assert re.fullmatch(r"ETA \d+ s", lines[1][3])  # one left, at the rate so far
    assert lines[2][3] == lines[3][3] == "ETA 0 s"


def test_rich_bar_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    monkeypatch.setattr(progress.sys, "stderr", stream)
    with progress.Progress("w", total=3, skipped=0) as bar:
        for failed in (False, True, True):
            bar.advance(failed)
        assert (bar.done, bar.failed) == (3, 2)
    assert "3/3" in stream.getvalue() and "failed 2" in stream.getvalue()


def test_eta_is_the_rest_at_the_rate_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    bar = progress.Progress("w", total=1000, skipped=0)
    assert bar.eta == "?"
    clock[0] += 10.0
    for _ in range(100):
        bar.advance(failed=False)
    assert bar.eta == "1 min 30 s"  # 900 left at 10 req/s
    for _ in range(800):
        bar.advance(failed=False)
    assert bar.eta == "1 s"  # 100 left at 90 req/s
    bar.total = 400_000
    assert bar.eta == "1 h 13 min"  # 399,100 left at 90 req/s: 4,434 s
    bar.done = bar.total
    assert bar.eta == "0 s"


def test_slow_rates_read_as_seconds_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """Below 1 req/s the line shows s/req: a workload taking 30 s a request read "0.0 req/s"."""
    clock = [100.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    stream = io.StringIO()
    monkeypatch.setattr(progress.sys, "stderr", stream)
    monkeypatch.setattr(progress, "PLAIN_EVERY_S", 0.0)
    with progress.Progress("longgen", total=10, skipped=0) as bar:
        assert bar.rate_text == "? req/s"  # nothing finished yet
        clock[0] += 30.0
        bar.advance(failed=False)  # 1 request in 30 s
        clock[0] += 10.0
        bar.advance(failed=True)  # 2 in 40 s: 0.05 req/s
        clock[0] += 8.0
        for _ in range(8):
            bar.advance(failed=False)  # 10 in 48 s: 0.2083 req/s, 4.8 s a request
    assert stream.getvalue().splitlines()[1:3] == [
        "longgen: 1/10 done, 30.0 s/req, 0 failed, ETA 4 min 30 s",
        "longgen: 2/10 done, 20.0 s/req, 1 failed, ETA 2 min 40 s",
    ]
    assert stream.getvalue().splitlines()[-1] == "longgen: 10/10 done, 4.8 s/req, 1 failed, ETA 0 s"


def test_rates_from_one_per_second_read_as_requests_per_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    bar = progress.Progress("chat", total=100, skipped=0)
    clock[0] = 4.0
    for _ in range(4):
        bar.advance(failed=False)
    assert bar.rate_text == "1.0 req/s"  # exactly 1 req/s: still requests per second
    bar.advance(failed=False)
    assert bar.rate_text == "1.2 req/s"  # 5 in 4 s (1.25, rounded half to even)
    clock[0] = 5.0
    assert bar.rate_text == "1.0 req/s"
    clock[0] = 5.5
    assert bar.rate_text == "1.1 s/req"  # 5 in 5.5 s: 0.91 req/s


def test_rich_bar_shows_seconds_per_request(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    clock = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: clock[0])
    stream = Tty()
    monkeypatch.setattr(progress.sys, "stderr", stream)
    with progress.Progress("w", total=2, skipped=0) as bar:
        clock[0] = 12.5
        bar.advance(failed=False)
    assert "12.5 s/req  failed 0" in stream.getvalue()
