"""Progress output: plain lines when stderr is not a terminal, a rich bar when it is."""

from __future__ import annotations

import io

import pytest

from stages.inference import progress


def test_plain_progress_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(progress.sys, "stderr", stream)
    monkeypatch.setattr(progress, "PLAIN_EVERY_S", 0.0)  # a line after every request
    with progress.Progress("w", total=2, skipped=3) as bar:
        bar.advance(failed=False)
        bar.advance(failed=True)
    lines = [line.split(", ")[0::2] for line in stream.getvalue().splitlines()]
    assert lines == [
        ["w: 2 requests to send (3 already done)"],
        ["w: 1/2 done", "0 failed"],
        ["w: 2/2 done", "1 failed"],
        ["w: 2/2 done", "1 failed"],
    ]


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
