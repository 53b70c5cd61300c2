"""One request to an OpenAI-compatible endpoint, with retries (issue 3, "The client").

Retried (exponential backoff with jitter, ``Retry-After`` honoured, at most ``max_retries``
times): 429, 5xx, connection failures, torn streams and empty ones. A pooled keep-alive
connection the server closed after its last answer is not a failure: the transport sends the
request again on a new connection without spending the retry budget
(:mod:`stages.network.transport`). Not retried:
a timeout of any kind (it already cost its limit: ``first_byte_timeout`` when no byte of an answer
came within ``first_byte_s``, ``stall`` when an answer stopped for ``stall_s``, ``timeout`` at the
total deadline — a slow stream is never cut), other 4xx, a context overflow, a refused key
(``auth``: 401/403, or an error body naming authentication, :mod:`stages.inference.credentials`),
an answer longer than ``max_answer_bytes`` (``answer_too_large``, read no further than that) and
an invalid answer — including a ``200`` to a streamed request that is not an SSE stream (an HTML
page, a JSON error body), recorded as ``invalid_response`` with its content type and first bytes.
Whatever the end, the caller gets an :class:`Outcome` to journal, with every failed try's kind
and message (``tries``); nothing raises except cancellation.

A stream that ends (``[DONE]`` or the end of its body) without content, tool call or finish
reason is no answer but a ``stream_empty`` failure: llama-cpp-python's server, at its defaults,
aborts a running stream when a new request comes and ends it with ``[DONE]`` alone. It answers a
streamed request it cannot serve (prompt too long, image parts for a text-only template) with a
``200`` stream without a single event: the error is raised inside its generator. So a stream
without any event is diagnosed with one non-streamed ``max_tokens: 1`` probe of the same request;
the probe's HTTP error (a 400 overflow becomes ``context_overflow``) is what gets recorded, and
only a probe that succeeds leaves the verdict ``stream_empty``.

A stream whose body ends cleanly after content but with neither ``[DONE]`` nor a finish reason is
accepted (its record says ``stream_end: "eof"``); one that breaks off (a read error) is torn.

A 400 is a ``context_overflow`` only when its body is one of the known engines' context-window
messages (:data:`OVERFLOW_MESSAGES`) and, where the message states the sizes, the prompt and
the requested completion really exceed the window; any other 4xx (``400 model name too long``)
is ``http_4xx`` and counts towards ``run.max_failed_share``.

Secrets (the API key) are scrubbed, in every form :mod:`stages.network.scrubber` knows, from
everything a server sends *before* it is cut to an excerpt (:func:`excerpt`), so a key straddling
a cut cannot leave a piece of itself behind; an answer's fields are scrubbed as it is assembled
(:meth:`~stages.protocol.sse.Answer.scrubbed`), response headers before they are quoted.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from stages.network.scrubber import excerpt, scrub
from stages.protocol.responses_answer import parse_response
from stages.protocol.responses_api import output_limit_key, speaks_responses
from stages.protocol.responses_stream import ResponsesReader
from stages.protocol.sse import Answer, InvalidResponse, StreamReader, parse_completion

if TYPE_CHECKING:  # a run's own client is the wire; httpx is imported only for an httpx client
    import httpx

    from stages.inference.replicas import Replicas
    from stages.network.transport import Wire, WireClient

    Client = httpx.AsyncClient | WireClient
else:
    Client = Any


class _Headers(Protocol):
    """Response headers, httpx's or a wire's (all look names up case-insensitively)."""

    def get(self, name: str, /) -> str | None: ...


#: What each engine says when the prompt does not fit its context window (looked up in each
#: engine's source). Groups ``n`` (tokens asked for: prompt, or prompt plus completion) and
#: ``ctx`` (the window) are compared where the message states them.
OVERFLOW_MESSAGES = [
    # llama.cpp server: "request (9412 tokens) exceeds the available context size (8192
    # tokens), try increasing it" (type exceed_context_size_error); older builds without sizes
    re.compile(r"request \((?P<n>\d+) tokens\) exceeds the available context size \((?P<ctx>\d+)"),
    re.compile(r"exceeds the available context size|exceed_context_size_error"),
    # llama-cpp-python: "Requested tokens (9001) exceed context window of 8192" (prompt only)
    re.compile(r"requested tokens \((?P<n>\d+)\) exceed context window of (?P<ctx>\d+)"),
    # OpenAI (code context_length_exceeded), vLLM: "This model's maximum context length is 4096
    # tokens. However, you requested 5000 tokens (...)" / "... your messages resulted in 9000"
    re.compile(
        r"maximum context length is (?P<ctx>\d+) tokens\W+however,? "
        r"(?:you requested|your messages resulted in) (?P<n>\d+)"
    ),
    re.compile(r"context_length_exceeded|this model's maximum context length is \d+ tokens"),
    # vLLM: "Input prompt (2501 tokens) is too long and exceeds limit of 2048", "The prompt
    # (total length 9000) is too long to fit into the model (context length 4096)", "The decoder
    # prompt (length 9000) is longer than the maximum model length of 8192"
    re.compile(r"input prompt \((?P<n>\d+) tokens\) is too long and exceeds limit of (?P<ctx>\d+)"),
    re.compile(
        r"prompt \(total length (?P<n>\d+)\) is too long to fit into the model "
        r"\(context length (?P<ctx>\d+)\)"
    ),
    re.compile(
        r"prompt \(length (?P<n>\d+)\) is longer than the maximum model length of (?P<ctx>\d+)"
    ),
    # SGLang: "The input (10009 tokens) is longer than the model's context length (8192 tokens)";
    # "Requested token count exceeds the model's maximum context length of 8192 tokens. You
    # requested a total of 9000 tokens: ..."
    re.compile(
        r"the input \((?P<n>\d+) tokens\) is longer than the model's context length \((?P<ctx>\d+)"
    ),
    re.compile(
        r"requested token count exceeds the model's maximum context length of (?P<ctx>\d+) "
        r"tokens\. you requested a total of (?P<n>\d+)"
    ),
]
ERROR_BODY_CHARS = 500
"""How much of an error body a failure's message keeps (after secrets are scrubbed)."""
MESSAGE_CHARS = 1000
"""How long a journaled error message may be."""
TRY_MESSAGE_CHARS = 300
"""How long the message of each failed try in a record's ``tries`` may be."""
BACKOFF_BASE_S = 0.5
BACKOFF_CAP_S = 30.0
_JITTER = random.Random()  # jitter only; never the global generator
_sleep = asyncio.sleep  # tests replace it to see the delays chosen


@dataclass(frozen=True)
class Policy:
    """Per-request limits from ``run:``."""

    timeout_s: float
    """The total deadline of an attempt: a last resort, for a server that trickles forever."""
    max_retries: int
    backoff_base_s: float | None = None
    """First backoff delay; None uses the module's ``BACKOFF_BASE_S``."""
    secrets: tuple[str, ...] = field(default=(), repr=False)
    """Texts never to be written (the API key): scrubbed from server texts before any cut."""
    first_byte_s: float | None = None
    """How long the first byte of the response may take (queueing at the server included);
    None: the total deadline."""
    stall_s: float | None = None
    """How long the response may go without a byte once it has started; None: no limit but
    the total deadline. A stream still sending is never cut for being slow."""
    max_answer_bytes: int | None = None
    """The most bytes a response body may have (``answer_too_large`` beyond, the read stopped
    there); None: no limit."""
    key_note: str | None = None
    """What the run knows about its API key (:func:`stages.inference.credentials.key_note`),
    the start of every ``auth`` failure's message."""


class _Clock:
    """The limits of one attempt (issue 32): the answer's first event within ``first_byte_s``,
    then no gap longer than ``stall_s``, all within ``timeout_s``; which one ran out names the
    failure (``first_byte_timeout``, ``stall`` or ``timeout``).

    A stream's head and SSE comments before its first event do not start the answer:
    llama-server sends its head at once and then reads the prompt, minutes for a long one on a
    busy machine, with at most a ``:`` comment every 30 s (none while ``/metrics`` is polled,
    measured on the embedded engine), so the stall limit would cut a prompt still being read."""

    def __init__(self, window: asyncio.Timeout, policy: Policy) -> None:
        loop = asyncio.get_running_loop()
        self._loop, self._window, self._policy = loop, window, policy
        self.deadline = loop.time() + policy.timeout_s
        first = policy.first_byte_s if policy.first_byte_s is not None else policy.timeout_s
        window.reschedule(min(loop.time() + first, self.deadline))
        self.started = False
        self.last = loop.time()

    def tick(self, answering: bool = True) -> None:
        """Bytes arrived (``answering``: the answer has begun, an event or a whole body): the
        stall limit starts again, never past the deadline. Bytes before the answer begins
        leave the first-event limit running."""
        if not (answering or self.started):
            return
        self.started = True
        self.last = self._loop.time()
        stall = self._policy.stall_s
        if stall is not None:
            self._window.reschedule(min(self.last + stall, self.deadline))
        elif self._window.when() != self.deadline:
            self._window.reschedule(self.deadline)

    def failure(self) -> _Failure:
        """The failure of an attempt whose window ran out."""
        policy, now = self._policy, self._loop.time()
        if now >= self.deadline - 1e-3:
            return _Failure("timeout", f"no complete answer within {policy.timeout_s:g} s")
        if not self.started:
            first = policy.first_byte_s if policy.first_byte_s is not None else policy.timeout_s
            return _Failure("first_byte_timeout", f"no byte of an answer within {first:g} s")
        gap = now - self.last
        return _Failure("stall", f"the answer stopped: no byte for {gap:.1f} s")


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
    failover: list[int] = field(default_factory=list)
    """Replicas that failed this request on the connection before it went to another one."""
    tries: list[dict[str, str]] = field(default_factory=list)
    """Every failed try in order, failovers included: ``{kind, message}`` (message cut to
    ``TRY_MESSAGE_CHARS``); empty when the first try answered."""


class _Failure(Exception):
    def __init__(
        self, kind: str, message: str, retry_after: float | None = None, empty: bool = False
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after = retry_after
        self.empty = empty
        """A stream that ended cleanly without a single event."""


_RETRIED = {"http_429", "http_5xx", "connection", "stream_torn", "stream_empty"}
_REPLICA_DOWN = {"connection", "stream_torn"}
"""Failures that take a replica out (its process died or restarts) and fail the request over."""
HEALTH_TIMEOUT_S = 5.0
_CHECKS: set[asyncio.Task[None]] = set()
FIRST_BYTES = 200
"""How much of a non-SSE answer goes into its ``invalid_response`` message."""


def _is_sse(content_type: str | None) -> bool:
    """A missing Content-Type is given the benefit of the doubt; any other must be SSE."""
    if content_type is None:
        return True
    return content_type.split(";", 1)[0].strip().lower() == "text/event-stream"


def _not_sse(content_type: str, first: bytes, secrets: Sequence[str]) -> _Failure:
    shown = excerpt(first, FIRST_BYTES, secrets, as_repr=True)
    kind = scrub(content_type, secrets)
    return _Failure(
        "invalid_response", f"200 with Content-Type {kind!r}, not an SSE stream: {shown}"
    )


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    import email.utils

    try:  # the HTTP-date form
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def is_overflow(text: str, max_tokens: int | None) -> bool:
    """Whether an error text is an engine's context-window message (and, where it states the
    sizes, the prompt with ``max_tokens`` of completion really exceeds the window)."""
    lower = text.lower()
    for pattern in OVERFLOW_MESSAGES:
        found = pattern.search(lower)
        if found is None:
            continue
        sizes = found.groupdict()
        if sizes.get("n") is None or sizes.get("ctx") is None:
            return True
        asked, window = int(sizes["n"]), int(sizes["ctx"])
        return asked > window or asked + (max_tokens or 0) > window
    return False


def _max_tokens(body: bytes) -> int | None:
    try:
        sent = json.loads(body)
        value = sent.get(output_limit_key(sent))
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) else None


def _reader(url: str, secrets: Sequence[str], sent: bytes) -> StreamReader | ResponsesReader:
    """The stream reader of the protocol ``url`` speaks (issue 33: ``model.api``)."""
    if speaks_responses(url):
        return ResponsesReader(secrets, _max_tokens(sent))
    return StreamReader(secrets)


def _parse(url: str, body: bytes, secrets: Sequence[str], sent: bytes) -> Answer:
    """A whole (non-streamed) answer to ``sent``, read as the protocol ``url`` speaks."""
    if speaks_responses(url):
        return parse_response(body, secrets, _max_tokens(sent))
    return parse_completion(body, secrets)


def _status_failure(
    status: int, body: bytes, headers: _Headers, secrets: Sequence[str], sent: bytes, url: str = ""
) -> _Failure:
    from stages.inference.credentials import KIND, is_refusal

    if 300 <= status < 400:  # never followed: the request carries the key (issue 31)
        from stages.network.policy import redirect_message

        return _Failure("redirect", redirect_message(status, headers.get("location"), url))
    text = excerpt(body, ERROR_BODY_CHARS, secrets)
    if status == 429:
        return _Failure("http_429", f"429: {text}", _retry_after(headers.get("retry-after")))
    whole = body.decode("utf-8", "replace")
    if status in (400, 413, 422) and is_overflow(whole, _max_tokens(sent)):
        return _Failure("context_overflow", f"{status}: {text}")
    if is_refusal(status, whole):  # whatever the status a proxy chose (credentials' rule)
        return _Failure(KIND, f"{status}: {text}")
    if status >= 500:
        return _Failure("http_5xx", f"{status}: {text}", _retry_after(headers.get("retry-after")))
    return _Failure("http_4xx", f"{status}: {text}")


def _too_large(limit: int) -> _Failure:
    return _Failure(
        "answer_too_large", f"the answer passed run.max_answer_bytes ({limit} bytes); not read on"
    )


async def _body(pieces: AsyncIterator[bytes], limit: int | None, cut: bool = False) -> bytes:
    """A whole body read piece by piece, stopped as soon as it passes ``limit`` bytes: a
    failure, or with ``cut`` (an error body, only ever excerpted) its first ``limit`` bytes."""
    out = bytearray()
    async for piece in pieces:
        out += piece
        if limit is not None and len(out) > limit:
            if cut:
                return bytes(out[:limit])
            raise _too_large(limit)
    return bytes(out)


def _no_tick(answering: bool = True) -> None:
    return None


async def _attempt(
    client: Client,
    url: str | httpx.URL,
    body: bytes,
    stream: bool,
    secrets: Sequence[str],
    tick: Callable[[bool], None] = _no_tick,
    limit: int | None = None,
) -> tuple[Answer, float]:
    """One HTTP exchange; returns the answer and the time the request was sent. ``tick`` is
    called whenever bytes arrive (the head, each piece of the body), saying whether the answer
    has begun: a whole response's head, a stream's first event. A body longer than ``limit``
    bytes is not read on (``answer_too_large``)."""
    wire = getattr(client, "wire", None)
    if wire is not None:
        headers: dict[str, str] = client.headers  # type: ignore[assignment]
        return await _attempt_on_wire(wire, headers, str(url), body, stream, secrets, tick, limit)
    import httpx

    request = httpx.Request("POST", url, headers=client.headers, content=body)
    started = time.perf_counter()
    try:
        response = await client.send(request, stream=True)  # type: ignore[union-attr]
    except httpx.TransportError as exc:
        raise _transport_failure(exc, str(url)) from exc
    tick(not stream)
    return await _read(response, stream, started, secrets, body, tick, limit)


async def _attempt_on_wire(
    wire: Wire,
    headers: dict[str, str],
    url: str,
    body: bytes,
    stream: bool,
    secrets: Sequence[str],
    tick: Callable[[bool], None],
    limit: int | None = None,
) -> tuple[Answer, float]:
    """:func:`_attempt` on a run's own client (see :mod:`stages.network.transport`): the same
    outcomes as the httpx path, with the wire's response (bodies decoded by the wire)."""
    from stages.network.transport import WireError

    started = time.perf_counter()
    try:
        raw = await wire.post(url, headers, body)
    except WireError as exc:
        raise _Failure(exc.failure, str(exc)) from exc
    tick(not stream)
    try:
        if raw.status != 200:
            error = await _body(raw.content.iter_any(), limit, cut=True)
            raise _status_failure(raw.status, error, raw.headers, secrets, body, url)
        content_type = raw.headers.get("Content-Type")
        if not stream:
            try:
                whole = await _body(raw.content.iter_any(), limit)
                return _parse(url, whole, secrets, body), started
            except InvalidResponse as exc:
                kind = scrub(str(content_type), secrets)
                raise InvalidResponse(f"200 with Content-Type {kind!r}: {exc}") from exc
        if not _is_sse(content_type):
            try:
                first = await raw.content.read(FIRST_BYTES)
            except wire.READ_ERRORS:
                first = b""
            raise _not_sse(str(content_type), first, secrets)
        reader = _reader(url, secrets, body)
        size = 0
        if hasattr(raw, "iter_timed"):  # the lean wire stamps each piece when it arrived
            async for chunk, arrived in raw.iter_timed():
                size += len(chunk)
                if limit is not None and size > limit:
                    raise _too_large(limit)
                reader.feed(chunk, arrived)
                tick(reader.answer.events > 0)
        else:
            async for chunk in raw.content.iter_any():
                size += len(chunk)
                if limit is not None and size > limit:
                    raise _too_large(limit)
                reader.feed(chunk, time.perf_counter())
                tick(reader.answer.events > 0)
        return _finish_stream(reader), started
    except wire.READ_ERRORS as exc:
        if (violation := getattr(exc, "failure", None)) is not None:  # http11.NotHTTP
            raise _Failure(violation, f"invalid response: {exc}") from exc
        kind = "stream_torn" if stream and raw.status == 200 else "connection"
        raise _Failure(kind, f"ReadError: connection broke mid-response: {exc!r}") from exc
    finally:
        raw.release()


def _finish_stream(reader: StreamReader | ResponsesReader) -> Answer:
    """The answer of a stream whose body ended without a read error. Without ``[DONE]`` or a
    finish reason it is still an answer when content arrived (``stream_end`` says ``eof``).
    Without content, tool call or finish reason it is no answer, ``[DONE]`` or not: a
    ``stream_empty`` failure (``empty``: not a single event, which is diagnosed)."""
    answer = reader.finish()
    if answer.first_token_at is None and answer.finish_reason is None:
        end = "[DONE]" if answer.done else "the end of the body"
        events = f"{answer.events} event{'' if answer.events == 1 else 's'}"
        message = f"stream ended ({end}) after {events} without content, tool call or finish reason"
        raise _Failure("stream_empty", message, empty=answer.events == 0)
    if answer.complete:
        return answer
    answer.stream_end = "eof"
    return answer


async def _read(
    response: httpx.Response,
    stream: bool,
    started: float,
    secrets: Sequence[str],
    sent: bytes,
    tick: Callable[[bool], None] = _no_tick,
    limit: int | None = None,
) -> tuple[Answer, float]:
    try:
        if response.status_code != 200:
            raw = await _body(response.aiter_bytes(), limit, cut=True)
            status, url = response.status_code, str(response.request.url)
            raise _status_failure(status, raw, response.headers, secrets, sent, url)
        content_type = response.headers.get("Content-Type")
        if not stream:
            try:
                body = await _body(response.aiter_bytes(), limit)
                return _parse(str(response.request.url), body, secrets, sent), started
            except InvalidResponse as exc:
                kind = scrub(str(content_type), secrets)
                raise InvalidResponse(f"200 with Content-Type {kind!r}: {exc}") from exc
        if not _is_sse(content_type):
            first = b""
            async for chunk in response.aiter_bytes():
                first += chunk
                if len(first) >= FIRST_BYTES:
                    break
            raise _not_sse(str(content_type), first, secrets)
        reader = _reader(str(response.request.url), secrets, sent)
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if limit is not None and size > limit:
                raise _too_large(limit)
            reader.feed(chunk, time.perf_counter())
            tick(reader.answer.events > 0)
        return _finish_stream(reader), started
    except _transport_errors() as exc:
        kind = "stream_torn" if stream and response.status_code == 200 else "connection"
        raise _Failure(kind, f"{type(exc).__name__}: {exc}") from exc
    finally:
        await response.aclose()


def _transport_failure(exc: Exception, url: str) -> _Failure:
    """An httpx transport failure under the network policy's kinds: ``tls``, ``invalid_response``
    (not HTTP) or ``connection``, named without the server's bytes."""
    from stages.network.policy import control_error

    failure = control_error(exc, url)
    kinds = {"tls": "tls", "protocol": "invalid_response"}
    if failure.kind in kinds:
        return _Failure(kinds[failure.kind], f"{type(exc).__name__}: {failure}")
    return _Failure("connection", f"{type(exc).__name__}: {exc}")


def _transport_errors() -> type[Exception]:
    import httpx

    return httpx.TransportError


async def _diagnose_empty_stream(
    client: Client,
    url: str | httpx.URL,
    body: bytes,
    secrets: Sequence[str],
    limit: int | None = None,
) -> None:
    """Re-ask without streaming for one token; raise the server's error if it gives one."""
    probe = json.loads(body)
    # one token; a Responses-API body asks for 16, the least OpenAI accepts there
    limit_key = output_limit_key(probe)
    probe.update({"stream": False, limit_key: 1 if limit_key == "max_tokens" else 16})
    probe.pop("stream_options", None)
    # llama-cpp-python closes the connection after such a stream, and the pool may hand that
    # dead connection to the probe: one more try on a connection failure.
    for _ in range(2):
        try:
            await _attempt(client, url, json.dumps(probe).encode(), False, secrets, limit=limit)
        except _Failure as failure:
            if failure.kind == "connection":
                continue
            message = f"empty stream; without streaming the server said {failure}"
            raise _Failure(failure.kind, message, failure.retry_after) from failure
        except InvalidResponse as exc:
            message = f"empty stream; without streaming the server answered {exc}"
            raise _Failure("invalid_response", message) from exc
        return


def _replicas(urls: Sequence[str | httpx.URL] | Replicas) -> Replicas:
    from stages.inference.replicas import Replicas

    return urls if isinstance(urls, Replicas) else Replicas([str(u) for u in urls])


async def _check(client: Client, replicas: Replicas, index: int) -> None:
    """The health check of a replica taken out: any answer to ``GET .../models`` brings it back."""
    url = replicas.health[index] if replicas.health else replicas.urls[index]
    wire = getattr(client, "wire", None)
    if wire is not None:
        healthy = await wire.healthy(url, client.headers, HEALTH_TIMEOUT_S)
    else:
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT_S):
                await client.get(url)  # type: ignore[union-attr]
            healthy = True
        except (TimeoutError, _transport_errors()):
            healthy = False
    replicas.checked(index, healthy)


def _start_checks(client: Client, replicas: Replicas) -> None:
    for index in replicas.due():
        task = asyncio.get_running_loop().create_task(_check(client, replicas, index))
        _CHECKS.add(task)
        task.add_done_callback(_CHECKS.discard)


def _message(failure: _Failure, tries: list[dict[str, str]], policy: Policy) -> str:
    """The journaled message of a request that failed for good: the last try's, after what the
    run knows about its key for a refused one, and naming the first try's failure when it was
    of another kind (a server that broke a stream off and then refused every connection failed
    with ``stream_torn`` first: that, not the refusals, says what happened)."""
    text = str(failure)
    if failure.kind == "auth" and policy.key_note:
        text = f"{policy.key_note}: {text}"
    first = tries[0]
    if first["kind"] == failure.kind:
        return excerpt(text, MESSAGE_CHARS, policy.secrets)
    also = f" (after {len(tries)} tries; the first failed with {first['kind']}: {first['message']})"
    return excerpt(text, MESSAGE_CHARS - len(also), policy.secrets) + also


async def send(
    client: Client,
    urls: Sequence[str | httpx.URL] | Replicas,
    turn: int,
    body: bytes,
    stream: bool,
    policy: Policy,
) -> Outcome:
    """Send ``body`` until it succeeds or fails for good. Attempt ``i`` goes to the next replica
    (:mod:`stages.inference.replicas`); a replica failing on the connection is taken out and the
    request goes to another one at once, without spending an attempt (a failover)."""
    replicas = _replicas(urls)
    attempts = 0
    failover: list[int] = []
    tries: list[dict[str, str]] = []
    failure: _Failure
    secrets, limit = policy.secrets, policy.max_answer_bytes
    while True:
        if replicas.down:
            _start_checks(client, replicas)
        index = replicas.pick(turn + attempts + len(failover), set(failover))
        url = replicas.urls[index]
        attempts += 1
        started = time.perf_counter()
        clock: _Clock | None = None
        try:
            async with asyncio.timeout(policy.timeout_s) as window:
                clock = _Clock(window, policy)
                try:
                    answer, started = await _attempt(
                        client, url, body, stream, secrets, clock.tick, limit
                    )
                except _Failure as torn:
                    if torn.empty:
                        await _diagnose_empty_stream(client, url, body, secrets, limit)
                    raise
            ended = time.perf_counter()
            done = Outcome(answer, None, attempts, started, ended, index, failover, tries)
            return done  # its answer was scrubbed as it was assembled (sse)
        except TimeoutError:
            failure = clock.failure() if clock is not None else _Failure("timeout", "")
        except _Failure as exc:
            failure = exc
        except InvalidResponse as exc:
            failure = _Failure("invalid_response", str(exc))
        tries.append(
            {"kind": failure.kind, "message": excerpt(str(failure), TRY_MESSAGE_CHARS, secrets)}
        )
        if failure.kind in _REPLICA_DOWN and len(replicas.urls) > 1:
            replicas.take_out(index)
            if index not in failover and replicas.others_up({*failover, index}):
                failover.append(index)  # not the request's fault: sent elsewhere, no attempt spent
                attempts -= 1
                continue
        if failure.kind not in _RETRIED or attempts > policy.max_retries:
            error = {"kind": failure.kind, "message": _message(failure, tries, policy)}
            ended = time.perf_counter()
            return Outcome(None, error, attempts, started, ended, index, failover, tries)
        base = BACKOFF_BASE_S if policy.backoff_base_s is None else policy.backoff_base_s
        backoff = base * 2 ** (attempts - 1) * _JITTER.uniform(0.5, 1.5)
        wait = failure.retry_after if failure.retry_after is not None else backoff
        await _sleep(min(wait, BACKOFF_CAP_S))
