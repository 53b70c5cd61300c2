"""One request to an OpenAI-compatible endpoint, with retries (issue 3, "The client").

Retried (exponential backoff with jitter, ``Retry-After`` honoured, at most ``max_retries``
times): 429, 5xx, connection failures and torn streams. Not retried: a timeout (it already cost
``timeout_s``), other 4xx, a context overflow and an invalid answer — including a ``200`` to a
streamed request that is not an SSE stream (an HTML page, a JSON error body), recorded as
``invalid_response`` with its content type and first bytes. Whatever the end, the caller gets an
:class:`Outcome` to journal; nothing raises except cancellation.

Some servers (llama-cpp-python's) answer a streamed request they cannot serve (prompt too long,
image parts for a text-only template) with an empty ``200`` stream: the error is raised inside
their generator. So an empty stream is diagnosed with one non-streamed ``max_tokens: 1`` probe
of the same request; the probe's HTTP error (a 400 overflow becomes ``context_overflow``) is
what gets recorded, and only a probe that succeeds leaves the verdict ``stream_torn``.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from stages.inference.sse import Answer, InvalidResponse, StreamReader, parse_completion

if TYPE_CHECKING:
    from stages.inference.transport import AiohttpTransport

# "request (N tokens) exceeds the available context size" (llama-server, error type
# exceed_context_size_error), "Requested tokens (N) exceed context window of M" (llama.cpp's
# Python server), "maximum context length" (OpenAI, vLLM), "prompt is too long" and similar.
_OVERFLOW = re.compile(
    r"exceed(s|ed)? (the )?(available )?context|exceed_context_size|context (window|length)|"
    r"maximum context|too long|context_length_exceeded|prompt is too long|input is too long|"
    r"larger than the max context",
    re.IGNORECASE,
)
BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 30.0
_JITTER = random.Random()  # jitter only; never the global generator
_sleep = asyncio.sleep  # tests replace it to see the delays chosen


@dataclass(frozen=True)
class Policy:
    """Per-request limits from ``run:``."""

    timeout_s: float
    max_retries: int
    backoff_base_s: float | None = None
    """First backoff delay; None uses the module's ``BACKOFF_BASE_S``."""


@dataclass
class Outcome:
    """The end of one request: an answer or an error, with timings of the last attempt."""

    answer: Answer | None
    error: dict[str, str] | None
    attempts: int
    started: float = 0.0
    ended: float = 0.0
    url_index: int = 0
    """Which of the run's URLs the last attempt went to."""


class _Failure(Exception):
    def __init__(
        self, kind: str, message: str, retry_after: float | None = None, empty: bool = False
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after = retry_after
        self.empty = empty
        """A stream that ended cleanly without a single event."""


_RETRIED = {"http_429", "http_5xx", "connection", "stream_torn"}
FIRST_BYTES = 200
"""How much of a non-SSE answer goes into its ``invalid_response`` message."""


def _is_sse(content_type: str | None) -> bool:
    """A missing Content-Type is given the benefit of the doubt; any other must be SSE."""
    if content_type is None:
        return True
    return content_type.split(";", 1)[0].strip().lower() == "text/event-stream"


def _not_sse(content_type: str, first: bytes) -> _Failure:
    return _Failure(
        "invalid_response",
        f"200 with Content-Type {content_type!r}, not an SSE stream: {first[:FIRST_BYTES]!r}",
    )


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:  # the HTTP-date form
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _status_failure(status: int, body: bytes, headers: httpx.Headers) -> _Failure:
    text = body[:500].decode("utf-8", "replace")
    if status == 429:
        return _Failure("http_429", f"429: {text}", _retry_after(headers.get("retry-after")))
    if status >= 500:
        return _Failure("http_5xx", f"{status}: {text}", _retry_after(headers.get("retry-after")))
    if status in (400, 413, 422) and _OVERFLOW.search(text):
        return _Failure("context_overflow", f"{status}: {text}")
    return _Failure("http_4xx", f"{status}: {text}")


async def _attempt(
    client: httpx.AsyncClient, url: httpx.URL, body: bytes, stream: bool
) -> tuple[Answer, float]:
    """One HTTP exchange; returns the answer and the time the request was sent."""
    wire = getattr(client, "wire", None)
    if wire is not None and stream:
        return await _attempt_on_wire(client, wire, url, body)
    request = httpx.Request("POST", url, headers=client.headers, content=body)
    started = time.perf_counter()
    try:
        response = await client.send(request, stream=True)
    except httpx.TransportError as exc:
        raise _Failure("connection", f"{type(exc).__name__}: {exc}") from exc
    return await _read(response, stream, started)


async def _attempt_on_wire(
    client: httpx.AsyncClient, wire: AiohttpTransport, url: httpx.URL, body: bytes
) -> tuple[Answer, float]:
    """:func:`_attempt` for a stream on the aiohttp transport, without httpx's models. Anything
    but a plain ``200`` (an error status, a compressed body) is read through httpx as the general
    path would have, so the outcome is the same. (httpx's cookie jar is not fed: requests here
    are built without it, so it never sent cookies back.)"""
    started = time.perf_counter()
    try:
        raw = await wire.post(str(url), client.headers, body)
    except httpx.TransportError as exc:
        raise _Failure("connection", f"{type(exc).__name__}: {exc}") from exc
    if raw.status != 200 or "Content-Encoding" in raw.headers:
        request = httpx.Request("POST", url, headers=client.headers, content=body)
        return await _read(wire.to_httpx(raw, request), True, started)
    content_type = raw.headers.get("Content-Type")
    if not _is_sse(content_type):
        try:
            first = await raw.content.read(FIRST_BYTES)
        except wire.READ_ERRORS:
            first = b""
        finally:
            raw.release()
        raise _not_sse(str(content_type), first)
    reader = StreamReader()
    try:
        async for chunk in raw.content.iter_any():
            reader.feed(chunk, time.perf_counter())
    except wire.READ_ERRORS as exc:  # the message the httpx path gives (a ReadError)
        raise _Failure("stream_torn", f"ReadError: connection broke mid-response: {exc!r}") from exc
    finally:
        raw.release()
    return _finish_stream(reader), started


def _finish_stream(reader: StreamReader) -> Answer:
    answer = reader.finish()
    if not answer.complete:
        message = f"stream ended after {answer.events} events without [DONE]"
        raise _Failure("stream_torn", message, empty=answer.events == 0)
    return answer


async def _read(response: httpx.Response, stream: bool, started: float) -> tuple[Answer, float]:
    try:
        if response.status_code != 200:
            raw = await response.aread()
            raise _status_failure(response.status_code, raw, response.headers)
        content_type = response.headers.get("Content-Type")
        if not stream:
            try:
                return parse_completion(await response.aread()), started
            except InvalidResponse as exc:
                raise InvalidResponse(f"200 with Content-Type {content_type!r}: {exc}") from exc
        if not _is_sse(content_type):
            first = b""
            async for chunk in response.aiter_bytes():
                first += chunk
                if len(first) >= FIRST_BYTES:
                    break
            raise _not_sse(str(content_type), first)
        reader = StreamReader()
        async for chunk in response.aiter_bytes():
            reader.feed(chunk, time.perf_counter())
        return _finish_stream(reader), started
    except httpx.TransportError as exc:
        kind = "stream_torn" if stream and response.status_code == 200 else "connection"
        raise _Failure(kind, f"{type(exc).__name__}: {exc}") from exc
    finally:
        await response.aclose()


async def _diagnose_empty_stream(client: httpx.AsyncClient, url: httpx.URL, body: bytes) -> None:
    """Re-ask without streaming for one token; raise the server's error if it gives one."""
    probe = json.loads(body)
    probe.update(stream=False, max_tokens=1)
    probe.pop("stream_options", None)
    # Such a server closes the connection after the empty stream, and the pool may hand that
    # dead connection to the probe: one more try on a connection failure.
    for _ in range(2):
        try:
            await _attempt(client, url, json.dumps(probe).encode(), stream=False)
        except _Failure as failure:
            if failure.kind == "connection":
                continue
            message = f"empty stream; without streaming the server said {failure}"
            raise _Failure(failure.kind, message, failure.retry_after) from failure
        except InvalidResponse as exc:
            message = f"empty stream; without streaming the server answered {exc}"
            raise _Failure("invalid_response", message) from exc
        return


async def send(
    client: httpx.AsyncClient,
    urls: list[httpx.URL],
    turn: int,
    body: bytes,
    stream: bool,
    policy: Policy,
) -> Outcome:
    """Send ``body`` until it succeeds or fails for good; attempt ``i`` goes to the next URL."""
    attempts = 0
    failure: _Failure
    while True:
        url = urls[(turn + attempts) % len(urls)]
        attempts += 1
        started = time.perf_counter()
        try:
            async with asyncio.timeout(policy.timeout_s):
                try:
                    answer, started = await _attempt(client, url, body, stream)
                except _Failure as torn:
                    if torn.empty:
                        await _diagnose_empty_stream(client, url, body)
                    raise
            index = (turn + attempts - 1) % len(urls)
            return Outcome(answer, None, attempts, started, time.perf_counter(), index)
        except TimeoutError:
            failure = _Failure("timeout", f"no complete answer within {policy.timeout_s:g} s")
        except _Failure as exc:
            failure = exc
        except InvalidResponse as exc:
            failure = _Failure("invalid_response", str(exc))
        if failure.kind not in _RETRIED or attempts > policy.max_retries:
            error = {"kind": failure.kind, "message": str(failure)[:1000]}
            index = (turn + attempts - 1) % len(urls)
            return Outcome(None, error, attempts, started, time.perf_counter(), index)
        base = BACKOFF_BASE_S if policy.backoff_base_s is None else policy.backoff_base_s
        backoff = base * 2 ** (attempts - 1) * _JITTER.uniform(0.5, 1.5)
        wait = failure.retry_after if failure.retry_after is not None else backoff
        await _sleep(min(wait, BACKOFF_CAP_S))
