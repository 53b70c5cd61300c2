"""The event loop a run sends on: uvloop where it is installed, else asyncio's own (issue 23).

Every streamed chunk of every request in flight passes through one event loop per sending
process, and on a 2-core machine shared with the server it is that loop's cost per request that
decides where the client falls behind. uvloop (libuv under asyncio's API) is a drop-in loop, chosen
here by passing its factory to :class:`asyncio.Runner`; nothing of asyncio or of any library is
patched, and a platform without it (Windows) runs on asyncio's loop with the same results.
``ATLAS_EVENT_LOOP=asyncio`` picks asyncio's loop anyway (to compare the two, or to rule uvloop
out). Measured by ``make bench`` (docs/benchmarks.md).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")
ENV = "ATLAS_EVENT_LOOP"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop factory, or None (asyncio's default loop)."""
    if os.environ.get(ENV, "").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def loop_name() -> str:
    """Which loop :func:`run` uses, as the manifest names it."""
    return "asyncio" if loop_factory() is None else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the loop :func:`loop_factory` chooses."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
