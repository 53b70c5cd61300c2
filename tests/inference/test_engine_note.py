"""The progress line on a busy machine (issue 32): the embedded engine's tokens per second and
the cores it gets, read from its /metrics and /proc, with the hand-computed figures."""

from __future__ import annotations

import os

import pytest

from stages.inference.progress import Progress
from stages.serving.server_metrics import Watch, cpu_seconds


def _watch(tokens: float, cpu: float, threads: int = 2) -> Watch:
    watch = Watch(None, 8192, pid=os.getpid(), threads=threads)
    watch._before = {"llamacpp:tokens_predicted": 100.0}
    watch._samples = [{"llamacpp:tokens_predicted": 100.0 + tokens, "_at": watch._started + 10.0}]
    watch._cpu = [(50.0, 3.0), (55.0, 3.0 + cpu / 2), (60.0, 3.0 + cpu)]
    return watch


def test_a_busy_machine_is_named() -> None:
    # 300 tokens in 10 s; 9 CPU seconds over the last 10 s: 0.9 of its 2 threads' cores
    assert _watch(300, 9).note() == (
        "engine 30 tokens/s on 0.9 of 2 cores (a busy machine: other work holds the rest)"
    )


def test_a_quiet_machine_is_not() -> None:
    assert _watch(890, 19.5).note() == "engine 89 tokens/s on 1.9 of 2 cores"


def test_half_a_window_is_enough_and_less_says_nothing() -> None:
    watch = _watch(300, 9)
    watch._cpu = watch._cpu[-2:]  # 5 s of CPU samples: half the window
    assert watch.note().startswith("engine 30 tokens/s on 0.9 of 2 cores")
    watch._cpu = [(59.0, 1.0), (60.0, 1.5)]  # one second only
    assert watch.note() == ""
    assert Watch(None, None).note() == ""


def test_cpu_seconds_of_this_process_grow() -> None:
    first = cpu_seconds(os.getpid())
    assert first is not None
    sum(i * i for i in range(2_000_000))
    second = cpu_seconds(os.getpid())
    assert second is not None and second > first
    assert cpu_seconds(2**22 + 12345) is None  # no such process


def test_the_plain_progress_line_carries_the_note(capsys: pytest.CaptureFixture[str]) -> None:
    with Progress("math", 2, 0, note=lambda: "engine 30 tokens/s on 0.9 of 2 cores") as shown:
        shown.advance(False)
        shown.advance(True)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "math: 2 requests to send (0 already done)"
    assert lines[-1].endswith("1 failed, ETA 0 s; engine 30 tokens/s on 0.9 of 2 cores")
