"""The sending loop (issue 23): uvloop when installed, asyncio's on request, named in manifests."""

from __future__ import annotations

import asyncio
import time

import pytest
import uvloop

from stages.inference import eventloop
from stages.serving.openloop import sleep_until


async def _loop_type() -> type:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop())


def test_runs_on_uvloop_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(eventloop.ENV, raising=False)
    assert eventloop.run(_loop_type()) is uvloop.Loop
    assert eventloop.loop_name() == "uvloop"


def test_asyncio_loop_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(eventloop.ENV, " Asyncio ")
    kind = eventloop.run(_loop_type())
    assert kind is not uvloop.Loop and issubclass(kind, asyncio.BaseEventLoop)
    assert eventloop.loop_name() == "asyncio"


def test_falls_back_to_asyncio_without_uvloop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(eventloop.ENV, raising=False)
    monkeypatch.setitem(__import__("sys").modules, "uvloop", None)  # import uvloop -> ImportError
    assert eventloop.loop_factory() is None
    assert eventloop.loop_name() == "asyncio"
    assert eventloop.run(_loop_type()) is not uvloop.Loop


def test_result_and_exception_come_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(eventloop.ENV, raising=False)

    async def fails() -> None:
        raise ValueError("from the loop")

    async def answers() -> int:
        return 42

    assert eventloop.run(answers()) == 42
    with pytest.raises(ValueError, match="from the loop"):
        eventloop.run(fails())


def test_sleep_until_never_wakes_before_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvloop's timers count whole milliseconds and may fire early: a scheduled send must not."""
    monkeypatch.delenv(eventloop.ENV, raising=False)

    async def early_by() -> list[float]:
        late = []
        for k in range(200):
            at = time.perf_counter() + 0.0003 + (k % 7) * 0.0004  # sub-millisecond targets
            await sleep_until(at)
            late.append(time.perf_counter() - at)
        return late

    late = eventloop.run(early_by())
    assert len(late) == 200 and min(late) >= 0.0


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
def test_sleep_until_wakes_once_as_a_rule(loop: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At thousands of sends a second a send is always less than a timer tick away: re-sleeping
    the rest of a millisecond again and again spun the loop (~26 wake-ups a send on uvloop)."""
    monkeypatch.setenv(eventloop.ENV, loop)
    sleeps = []
    real_sleep = asyncio.sleep

    async def counted(seconds: float) -> None:
        sleeps.append(seconds)
        await real_sleep(seconds)

    monkeypatch.setattr("stages.serving.openloop.asyncio.sleep", counted)

    async def late_by() -> list[float]:
        late = []
        for k in range(100):
            at = time.perf_counter() + 0.0003 + (k % 7) * 0.0004
            await sleep_until(at)
            late.append(time.perf_counter() - at)
        return late

    late = eventloop.run(late_by())
    assert min(late) >= 0.0
    assert len(sleeps) <= 110  # one each, a few timers that fired early slept again
