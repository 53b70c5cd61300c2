"""A loopback OpenAI-compatible chat-completions stub for the inference tests and the benchmark.

Plain asyncio (no framework) so that one process answers well over a thousand requests a second.
It speaks just enough HTTP/1.1 (keep-alive, Content-Length requests, chunked SSE responses) and
counts what it saw: requests, request bodies and headers, and the peak number in flight.

Failure modes (all optional, see :class:`StubConfig`): a status such as 429 or 500 for the first
N requests (with ``Retry-After``), a torn SSE stream for the first N streams, hanging requests
after N answered (for timeouts and killed runs), an endpoint that goes down after N answers
(connections dropped without a response), a 200 that is not an SSE stream, and a llama-cpp-style
400 context overflow for prompts longer than a number of characters, a stream that ends after its
content without a finish reason or ``[DONE]``, and a server that closes every connection after
answering on it (without ``Connection: close``), streams with no answer in them (a role delta,
then ``[DONE]``) and answers that never end. What the endpoint shows about itself can be set
too: a chat template at ``/props`` (llama.cpp style), a ``system_fingerprint`` and the ``model``
named in every answer (by default the model requested); ``reply_fn`` makes the answer depend on
the request (an oracle that answers every item right, or a sampler whose text depends on the
seed). ``echo`` plants a text (a test's API key, in some form) in every field the stub sends.

Run standalone for the benchmark: ``python tests/stub_server.py --delay 0.1`` prints
``PORT <n>`` on stdout and serves until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Self

OVERFLOW_MESSAGE = "Requested tokens ({n}) exceed context window of {ctx}"


@dataclass
class StubConfig:
    """How the stub answers; every field may be changed between requests by a test."""

    delay_s: float = 0.0
    """Wait before the first token (what time-to-first-token should measure)."""
    reply: str = "Answer: 42"
    """Assistant text, sent as ``chunks`` roughly equal SSE deltas."""
    chunks: int = 4
    """Number of content deltas per streamed answer."""
    gap_s: float = 0.0
    """Wait between content deltas."""
    fail_status: int = 500
    """Status sent to the first ``fail_first`` chat requests."""
    fail_first: int = 0
    """How many chat requests (counted from the start) get ``fail_status``."""
    retry_after: str | None = None
    """``Retry-After`` header value sent with a failure."""
    error_body: str = "stub failure"
    """Error message sent with a failure (a test may make it echo a secret)."""
    torn_first: int = 0
    """How many streamed answers are cut off after their first delta."""
    hang_after: int | None = None
    """Chat requests after this many never get an answer (the client must time out)."""
    head_first_s: float = 0.0
    """Streams: send the head at once and the first event this long after it, as llama-server
    does while it reads a long prompt (``delay_s`` waits before the head)."""
    comment_every_s: float | None = None
    """During ``head_first_s``, an SSE comment (``:``) this often: llama-server's keep-alive."""
    stall_first: int = 0
    """How many streamed answers stop after their first delta and send nothing more (a stuck
    server: the client's stall limit must end them)."""
    overflow_chars: int | None = None
    """Prompts longer than this (all message text) get llama-cpp's 400 context overflow."""
    overflow_empty_stream: bool = False
    """Streamed overflows get what llama-cpp-python sends: 200, no event, connection closed."""
    tool_call: dict[str, Any] | None = None
    """When set and the request has ``tools``, answer with this call ({name, arguments})."""
    tool_call_fn: Callable[[dict[str, Any]], dict[str, Any] | None] | None = None
    """When set and the request has ``tools``, answer with ``tool_call_fn(body)`` instead of
    ``tool_call`` (None: a text answer)."""
    on_request: Callable[[dict[str, Any]], None] | None = None
    """Called with each chat request body before answering (tests use it to cancel runs)."""
    slots: int | None = None
    """At most this many requests are answered at once; the others wait in line, as on a
    single-slot server (the waiting counts in their time to first token)."""
    record_times: bool = False
    """Keep the stub's own timestamps of each answer in ``stats.times`` (issue 14 benchmark)."""
    reply_fn: Callable[[dict[str, Any]], str] | None = None
    """When set, the assistant text is ``reply_fn(body)`` instead of ``reply``."""
    down_after: int | None = None
    """Chat requests after this many are dropped without a response (the endpoint died)."""
    raw_200: tuple[str, bytes] | None = None
    """Answer chat requests with 200, this Content-Type and this body (not a chat completion)."""
    props_template: str | None = None
    """Served as ``chat_template`` at ``GET /props`` (llama.cpp style); None: no /props."""
    fingerprint: str | None = None
    """Sent as ``system_fingerprint`` in every answer."""
    reply_model: str | None = None
    """The ``model`` every answer names; None names the model the request asked for."""
    no_done: bool = False
    """Streams end cleanly after their content, with neither a finish reason nor ``[DONE]``."""
    close_after_answer: bool = False
    """Close each connection right after answering on it (no ``Connection: close`` header)."""
    empty_first: int = 0
    """How many streamed answers are a role delta and then ``[DONE]``: no content, no finish
    reason (llama-cpp-python's server aborting a running stream when a new request comes)."""
    models_error: tuple[int, str] | None = None
    """``GET /models`` answers this status and error message instead of the model list."""
    endless: bool = False
    """Answers never end: a stream sends content deltas, a plain answer a JSON body whose text
    never closes (chunked), until the client leaves."""
    echo: str | None = None
    """Planted in every field the stub can send (issue 31: a server echoing the API key): the
    ``system_fingerprint`` and ``model`` of every answer or event, a tool call's id, name and
    arguments, an extra ``usage`` field, the answer text, error bodies (``fail_first``'s and
    404s), an ``X-Echo`` header on every response, ``/props``' chat template and an id of
    ``/v1/models``. A test passes it in the form it wants to see handled (the key itself,
    JSON-escaped, URL-encoded, base64)."""
    omit_usage: bool = False
    """Streams carry no usage event even when ``stream_options.include_usage`` asks for one (as
    seen behind llama-cpp-python's server and LiteLLM)."""
    timings: dict[str, Any] | None = None
    """llama.cpp's per-request ``timings``, sent on a stream's finish event."""
    props: dict[str, Any] | None = None
    """More of llama.cpp's ``/props`` document (``default_generation_settings``...), served
    beside ``props_template``'s template (``/props`` then answers even without a template)."""
    owned_by: str | None = None
    """The ``owned_by`` of the ``/models`` entry (``llamacpp``, ``vllm``, ``me``...)."""
    server_info: dict[str, Any] | None = None
    """Served at ``GET /server_info`` (vLLM with ``VLLM_SERVER_DEV_MODE=1``); None: no route."""
    echo_escaped: bool = False
    """JSON bodies carry ``echo`` with every character written ``\\uXXXX`` on the wire (as an
    ASCII-only encoder may), where ``json.dumps`` would write most of them as they are."""
    reasoning: str = ""
    """Reasoning sent before the answer (issue 33), one delta per whitespace-separated word (the
    space kept with the word before it), in the form ``reasoning_form`` says."""
    reasoning_form: str = "reasoning_content"
    """``reasoning_content`` or ``reasoning`` (a delta field of that name; a plain answer's
    message field), or ``think``: ``<think>`` and ``</think>`` deltas around the words, in the
    content (a plain answer's content then holds the whole block before the reply)."""
    reasoning_usage: bool = False
    """The usage names the reasoning deltas in ``completion_tokens_details.reasoning_tokens``
    (and counts them in ``completion_tokens``)."""
    tokenize: bool = False
    """Serve ``POST /tokenize`` (llama.cpp and vLLM): one token per whitespace-separated word of
    ``content`` (llama.cpp) or ``prompt`` (vLLM); bodies kept in ``stats.tokenized``."""


@dataclass
class StubStats:
    """What the stub observed."""

    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    gets: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    """Every ``GET``: its path and headers."""
    tokenized: list[dict[str, Any]] = field(default_factory=list)
    """Bodies of ``POST /tokenize`` requests, with the request's ``authorization`` header."""
    times: list[dict[str, Any]] = field(default_factory=list)
    """With ``record_times``: per answered stream, the last user message, when the request was
    read and when each content delta was written (``time.perf_counter``, the system's monotonic
    clock on Linux, so a client in another process can compare)."""


class ThreadedServer:
    """An asyncio server on 127.0.0.1 run from a background thread (``with`` block); a subclass
    says what it serves in :meth:`serve`, which sets ``_server`` and ``port``."""

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None

    async def serve(self) -> asyncio.Server:
        raise NotImplementedError

    def __enter__(self) -> Self:
        ready = threading.Event()

        def run() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self.serve())
            ready.set()
            self._loop.run_forever()

        self._thread = threading.Thread(target=run, name=type(self).__name__, daemon=True)
        self._thread.start()
        ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        loop, server = self._loop, self._server
        if loop is None or server is None:
            return

        async def shutdown() -> None:
            server.close()
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread:
            self._thread.join(10)


class StubServer(ThreadedServer):
    """The stub, served on 127.0.0.1 from a background thread (``with StubServer() as s``)."""

    def __init__(self, config: StubConfig | None = None, port: int = 0) -> None:
        super().__init__(port)
        self.config = config or StubConfig()
        self.stats = StubStats()
        self._slots: asyncio.Semaphore | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def serve(self) -> asyncio.Server:
        self._server = await asyncio.start_server(self._connection, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self._server

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _ = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        name, value = line.split(":", 1)
                        headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0"))
                body = await reader.readexactly(length) if length else b""
                received = time.perf_counter()
                keep = await self._answer(method, path, headers, body, writer, received, reader)
                if not keep or (self.config.close_after_answer and path.endswith("/completions")):
                    await writer.drain()
                    break
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _answer(
        self,
        method: str,
        path: str,
        headers: dict[str, str],
        raw: bytes,
        writer: Any,
        received: float = 0.0,
        reader: asyncio.StreamReader | None = None,
    ) -> bool:
        if method == "GET" and path.endswith("/stub/times"):
            _send_json(writer, 200, self.stats.times)
            self.stats.times = []
            return True
        stats, config = self.stats, self.config
        echo = config.echo or ""
        if method == "GET":
            stats.gets.append((path, headers))
        if method == "GET" and path == "/server_info" and config.server_info is not None:
            self._send(writer, 200, config.server_info)
            return True
        if method == "GET" and path.endswith("/models") and self.config.models_error:
            status, message = self.config.models_error
            self._send(writer, status, {"error": {"message": message}})
            return True
        if method == "GET" and path.endswith("/models"):
            models = [{"id": "stub-model"}] + ([{"id": echo}] if echo else [])
            if config.owned_by is not None:
                models[0]["owned_by"] = config.owned_by
            self._send(writer, 200, {"object": "list", "data": models})
            return True
        shows = config.props_template is not None or echo or config.props is not None
        if method == "GET" and path == "/props" and shows:
            props = {**(config.props or {}), "chat_template": (config.props_template or "") + echo}
            self._send(writer, 200, props)
            return True
        if method == "POST" and path == "/tokenize" and config.tokenize:
            asked = json.loads(raw)
            stats.tokenized.append({**asked, "authorization": headers.get("authorization")})
            words = str(asked.get("content", asked.get("prompt", ""))).split()
            self._send(writer, 200, {"tokens": list(range(len(words))), "count": len(words)})
            return True
        if not (method == "POST" and path.endswith("/chat/completions")):
            self._send(writer, 404, {"error": {"message": f"no route {path}{echo}"}})
            return True
        body = json.loads(raw)
        stats.requests += 1
        number = stats.requests
        stats.bodies.append(body)
        stats.headers.append(headers)
        stats.in_flight += 1
        stats.max_in_flight = max(stats.max_in_flight, stats.in_flight)
        try:
            if config.on_request is not None:
                config.on_request(body)
            if config.hang_after is not None and number > config.hang_after:
                await asyncio.sleep(3600)
            if config.down_after is not None and number > config.down_after:
                writer.transport.abort()
                return False
            if config.raw_200 is not None:
                content_type, data = config.raw_200
                head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\n"
                writer.write(f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
                return True
            if number <= config.fail_first:
                extra = {"Retry-After": config.retry_after} if config.retry_after else {}
                error = {"error": {"message": config.error_body + echo}}
                self._send(writer, config.fail_status, error, extra)
                return True
            chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
            if config.overflow_chars is not None and chars > config.overflow_chars:
                if body.get("stream") and config.overflow_empty_stream:
                    writer.write(
                        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                    )
                    await writer.drain()
                    return False
                message = OVERFLOW_MESSAGE.format(n=chars, ctx=config.overflow_chars)
                self._send(writer, 400, {"error": {"message": message}})
                return True
            if config.slots is not None and self._slots is None:
                self._slots = asyncio.Semaphore(config.slots)
            async with self._slots or contextlib.nullcontext():
                gone = writer.transport.is_closing() or (reader is not None and reader.at_eof())
                if gone:  # the client left while it waited: dropped, as engines abort a request
                    return False  # whose connection closed
                await asyncio.sleep(config.delay_s)
                call = None
                if body.get("tools"):
                    call = config.tool_call_fn(body) if config.tool_call_fn else config.tool_call
                reply = config.reply_fn(body) if config.reply_fn is not None else config.reply
                if config.endless:
                    await _endless(writer, bool(body.get("stream")))
                    return False
                if not body.get("stream"):
                    answer = _completion(body, reply, call, echo, config)
                    answer["model"] = echo or config.reply_model or body.get("model")
                    if echo or config.fingerprint is not None:
                        answer["system_fingerprint"] = echo or config.fingerprint
                    self._send(writer, 200, answer)
                    return True
                torn = number <= config.torn_first
                times: list[float] = []
                stalled = number <= config.stall_first
                empty = number <= config.empty_first
                await self._stream(writer, body, call, torn, reply, times, stalled, empty)
                if config.record_times:
                    last = str((body.get("messages") or [{}])[-1].get("content", ""))
                    stats.times.append({"content": last, "received": received, "tokens": times})
                return not torn
        finally:
            stats.in_flight -= 1

    def _plant(self, data: bytes) -> bytes:
        """A JSON body with ``echo`` written as ``echo_escaped`` asks."""
        echo = self.config.echo
        if not (echo and self.config.echo_escaped):
            return data
        return data.replace(json.dumps(echo)[1:-1].encode(), escaped(echo).encode())

    def _send(
        self, writer: Any, status: int, obj: Any, extra: dict[str, str] | None = None
    ) -> None:
        """A JSON response, with ``echo`` planted in its body and an ``X-Echo`` header."""
        echo = self.config.echo
        headers = {**(extra or {}), **({"X-Echo": echo} if echo else {})}
        _send_json(writer, status, obj, headers, self._plant)

    async def _stream(
        self,
        writer: Any,
        body: dict[str, Any],
        call: Any,
        torn: bool,
        reply: str,
        times: list[float],
        stalled: bool = False,
        empty: bool = False,
    ) -> None:
        config = self.config
        echo = config.echo or ""
        plant = self._plant if echo and config.echo_escaped else None  # the benchmark's path
        fingerprint = echo or config.fingerprint
        extra = {"system_fingerprint": fingerprint} if fingerprint else {}
        extra["model"] = echo or config.reply_model or body.get("model")
        header = f"X-Echo: {echo}\r\n".encode() if echo else b""
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
            b"Transfer-Encoding: chunked\r\n" + header + b"\r\n"
        )
        await self._read_prompt(writer)
        deltas: list[dict[str, Any]] = [{"role": "assistant"}]
        if empty:  # aborted: no answer, no finish reason
            role = {"index": 0, "delta": deltas[0], "finish_reason": None}
            writer.write(_chunk({**extra, "choices": [role]}) + _chunked(b"data: [DONE]\n\n"))
            writer.write(b"0\r\n\r\n")
            await writer.drain()
            return
        if call is not None:
            args = json.dumps(call["arguments"])
            half = len(args) // 2
            fn, call_id = {"name": call["name"], "arguments": args[:half]}, echo or "call_0"
            deltas.append(
                {"tool_calls": [{"index": 0, "id": call_id, "type": "function", "function": fn}]}
            )
            deltas.append({"tool_calls": [{"index": 0, "function": {"arguments": args[half:]}}]})
        else:
            deltas += _thinking(config) + [{"content": p} for p in _split(reply, config.chunks)]
        # Without gaps the whole answer goes out in one write (one segment), as a fast server's
        # would; the benchmark then measures the client, not the stub's syscalls.
        out: list[bytes] = []
        for i, delta in enumerate(deltas):
            choice = {"index": 0, "delta": delta, "finish_reason": None}
            out.append(_chunk({**extra, "choices": [choice]}, plant))
            if i == 1 and torn:
                writer.write(b"".join(out))
                await writer.drain()
                writer.transport.abort()
                return
            if i == 1 and stalled:
                writer.write(b"".join(out))
                await writer.drain()
                await asyncio.sleep(3600)
            if i >= 1 and config.gap_s:
                # stamped before the write: the client cannot receive the bytes before the stamp
                times.append(time.perf_counter())
                writer.write(b"".join(out))
                out.clear()
                await writer.drain()
                await asyncio.sleep(config.gap_s)
        if config.no_done:
            writer.write(b"".join(out) + b"0\r\n\r\n")
            await writer.drain()
            return
        finish = "tool_calls" if call is not None else "stop"
        last = {"index": 0, "delta": {}, "finish_reason": finish}
        timings = {"timings": config.timings} if config.timings is not None else {}
        out.append(_chunk({**extra, "choices": [last], **timings}, plant))
        asked = (body.get("stream_options") or {}).get("include_usage")
        if asked and not config.omit_usage:
            usage = _usage(body, reply, echo, config)
            out.append(_chunk({**extra, "choices": [], "usage": usage}, plant))
        out.append(_chunked(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        if not config.gap_s:
            times.extend([time.perf_counter()] * (len(deltas) - 1))
        writer.write(b"".join(out))
        await writer.drain()

    async def _read_prompt(self, writer: Any) -> None:
        """The wait between a stream's head and its first event (``head_first_s``)."""
        config = self.config
        if not config.head_first_s:
            return
        await writer.drain()
        left, every = config.head_first_s, config.comment_every_s
        while every is not None and left > every:
            await asyncio.sleep(every)
            left -= every
            writer.write(_chunked(b":\n\n"))
            await writer.drain()
        await asyncio.sleep(left)


async def _endless(writer: Any, stream: bool) -> None:
    """A 200 whose body never ends, 64 KiB at a time while the client still reads."""
    kind = b"text/event-stream" if stream else b"application/json"
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: %s\r\nTransfer-Encoding: chunked\r\n\r\n" % kind
    )
    if not stream:
        writer.write(_chunked(b'{"choices": [{"index": 0, "message": {"content": "'))
    text = "x" * (64 << 10)
    piece = (
        _chunk({"choices": [{"index": 0, "delta": {"content": text}}]})
        if stream
        else (_chunked(text.encode()))
    )
    while not writer.transport.is_closing():
        writer.write(piece)
        await writer.drain()


def _split(text: str, parts: int) -> list[str]:
    size = max(1, -(-len(text) // max(parts, 1)))
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


def _thinking(config: StubConfig) -> list[dict[str, Any]]:
    """The reasoning deltas of an answer (none without ``reasoning``)."""
    words = [w + " " for w in config.reasoning.split(" ") if w]
    if not words:
        return []
    words[-1] = words[-1].rstrip()
    if config.reasoning_form == "think":
        return [{"content": piece} for piece in ["<think>", *words, "</think>"]]
    return [{config.reasoning_form: word} for word in words]


def _usage(
    body: dict[str, Any], reply: str, echo: str = "", config: StubConfig | None = None
) -> dict[str, Any]:
    prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4
    completion = max(1, len(reply) // 4)
    thought = len(_thinking(config)) if config is not None and config.reasoning_usage else 0
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion + thought,
        "total_tokens": prompt + completion + thought,
    }
    if thought:
        usage["completion_tokens_details"] = {"reasoning_tokens": thought}
    if echo:
        usage["echo"] = echo
    return usage


def _completion(
    body: dict[str, Any], reply: str, call: Any, echo: str = "", config: StubConfig | None = None
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None if call else reply}
    if config is not None and config.reasoning:
        if config.reasoning_form == "think":
            message["content"] = f"<think>{config.reasoning}</think>{message['content'] or ''}"
        else:
            message[config.reasoning_form] = config.reasoning
    if call is not None:
        message["tool_calls"] = [
            {
                "id": echo or "call_0",
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])},
            }
        ]
    choice = {"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}
    usage = _usage(body, reply, echo, config)
    return {"object": "chat.completion", "choices": [choice], "usage": usage}


def _chunked(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def _chunk(obj: dict[str, Any], plant: Callable[[bytes], bytes] | None = None) -> bytes:
    obj = {"object": "chat.completion.chunk", **obj}
    data = json.dumps(obj).encode()
    return _chunked(b"data: " + (plant(data) if plant else data) + b"\n\n")


def escaped(text: str) -> str:
    """``text`` as JSON with every character a ``\\uXXXX`` escape (surrogate pairs past U+FFFF)."""
    data = text.encode("utf-16-be", "surrogatepass")
    units = [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]
    return "".join(f"\\u{unit:04x}" for unit in units)


def _send_json(
    writer: Any,
    status: int,
    obj: Any,
    extra: dict[str, str] | None = None,
    plant: Callable[[bytes], bytes] | None = None,
) -> None:
    data = json.dumps(obj).encode()
    data = plant(data) if plant else data
    head = [
        f"HTTP/1.1 {status} X",
        "Content-Type: application/json",
        f"Content-Length: {len(data)}",
    ]
    head += [f"{k}: {v}" for k, v in (extra or {}).items()]
    writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.1, help="seconds before the first token")
    parser.add_argument("--chunks", type=int, default=4)
    parser.add_argument("--gap", type=float, default=0.0, help="seconds between content deltas")
    parser.add_argument("--record-times", action="store_true", help="serve GET /v1/stub/times")
    args = parser.parse_args()
    config = StubConfig(
        delay_s=args.delay, chunks=args.chunks, gap_s=args.gap, record_times=args.record_times
    )
    stub = StubServer(config, port=args.port)

    async def run() -> None:
        server = await stub.serve()
        print(f"PORT {stub.port}", flush=True)
        async with server:
            await server.serve_forever()

    asyncio.run(run())


if __name__ == "__main__":
    main()
