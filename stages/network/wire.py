"""The HTTP/1.1 client a run sends with: a keep-alive pool on asyncio's protocols (issue 23).

What a sending loop needs of HTTP is small: POST a JSON body, read a status line and headers,
then a body framed by ``Content-Length``, by chunks (``Transfer-Encoding: chunked``, which is how
OpenAI-compatible servers stream server-sent events) or by the end of the connection, and keep the
connection for the next request. A general client pays for far more on every request (cookies,
redirects, tracing hooks, multipart); aiohttp's import alone, which creates two TLS contexts by
reading the system's certificate store, was about 85 ms of a 2.4 s run, and its request path most
of the client's CPU per request (aiohttp is no longer used: issue 31). Here the response is parsed
in the protocol's ``data_received``, each piece of body is stamped with the time it arrived there
(the earliest a process can see it, before it waits its turn in the event loop: what TTFT and ITL
should read), and TLS is set up only for ``https`` URLs.

The project's network policy (:mod:`stages.network.policy`) holds here too: TLS verified
against ``SSL_CERT_FILE``/``SSL_CERT_DIR`` or the system's store; the proxy httpx would use for a
URL (``HTTP_PROXY``, ``NO_PROXY``, ...) is used, absolute-form requests for ``http`` URLs and a
``CONNECT`` tunnel for ``https`` ones; no redirect is followed (a 3xx reaches the caller, which
fails it as a ``redirect``). Limits, on purpose: no request pipelining, no compression asked for
(``gzip`` and ``deflate`` bodies are still decoded). HTTP/1.0 servers and ``Connection: close``
are honoured. Errors: :class:`WireError` when no response came (``connect``, or ``read`` before
the head), :class:`BrokenResponse` when it broke later, :class:`NotHTTP` (one of them) when the
peer sent something that is not HTTP/1.x: no status line, a head over :data:`MAX_HEAD`, bytes past
the end of the response. Their messages never quote the server's bytes: a malformed line may hold
the API key, echoed, and a message is cut before anyone could scrub it.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections import deque
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit

from stages.network.policy import tls_context
from stages.network.tunnel import Route, open_tunnel, route

MAX_HEAD = 1 << 16
"""A response head (status line and headers) longer than this is not HTTP."""
_LENGTH, _CHUNKED, _CLOSE, _DONE = range(4)


class WireError(Exception):
    """The request got no response: ``connect`` (no connection) or ``read`` (it broke first);
    ``failure`` is the failure kind a journal gives it (``connection``, ``tls``,
    ``invalid_response``)."""

    def __init__(self, kind: str, message: str, failure: str = "connection") -> None:
        super().__init__(message)
        self.kind = kind
        self.failure = failure


class BrokenResponse(OSError):
    """The connection ended, or sent something that is not HTTP, before the response ended."""


class NotHTTP(BrokenResponse):
    """The peer broke HTTP/1.1's rules: not a connection that broke, an answer that is invalid."""

    failure = "invalid_response"


READ_ERRORS = (BrokenResponse, OSError)
"""What a broken connection raises while a body is read."""


class Headers(dict[str, str]):
    """Response headers; names looked up case-insensitively (a repeated name: values joined)."""

    def get(self, name: str, default: Any = None) -> Any:
        return super().get(name.lower(), default)


class Response:
    """One response; ``content`` is itself (``read(n)``, ``iter_any()``, ``iter_timed()``)."""

    def __init__(self, connection: _Connection) -> None:
        self._connection = connection
        self.status = 0
        self.headers = Headers()
        self.head: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pieces: deque[tuple[bytes, float]] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self._buffer = bytearray()
        self._framing = _LENGTH
        self._left = 0  # bytes left of the body (_LENGTH) or of the current chunk (_CHUNKED)
        self._chunk_end = False  # a chunk's data is done: its CRLF comes next
        self._error: BaseException | None = None
        self._decoder: Any = None
        self.keep_alive = True

    @property
    def content(self) -> Response:
        """The body's reader (the response itself; a property, so no reference cycle)."""
        return self

    @property
    def done(self) -> bool:
        return self._framing == _DONE

    # -- fed by the connection ------------------------------------------------------------------

    def feed(self, data: bytes, at: float) -> None:
        if self.done:  # bytes after the response: the connection cannot be trusted any more
            self.keep_alive = False
            return
        self._buffer += data
        try:
            if not self.head.done():
                self._parse_head()
            if self.head.done():
                self._parse_body(at)
        except BrokenResponse as exc:
            self.fail(exc)
        self._wake()

    def fail(self, exc: BaseException, eof: bool = False) -> None:
        """The connection ended (``eof``: closed by the server) or broke (``exc``)."""
        self.keep_alive = False
        if self.done:
            return
        if eof and self._framing == _CLOSE and self.head.done():
            self._framing = _DONE  # the body was framed by the end of the connection
        elif self._error is None:
            self._error = exc if isinstance(exc, BrokenResponse) else BrokenResponse(str(exc))
            if not self.head.done():
                self.head.set_exception(self._error)
                self.head.exception()  # retrieved: the caller sees it through ``post``
        self._wake()

    def _parse_head(self) -> None:
        while True:  # 1xx interim responses are skipped
            if not b"HTTP/".startswith(bytes(self._buffer[:5])):  # an SSH banner, say: no wait
                raise NotHTTP("the peer does not speak HTTP/1.x: no status line in its answer")
            end = self._buffer.find(b"\r\n\r\n")
            if end > MAX_HEAD or (end < 0 and len(self._buffer) > MAX_HEAD):
                raise NotHTTP(f"a response head longer than {MAX_HEAD} bytes")
            if end < 0:
                return
            lines = bytes(self._buffer[:end]).decode("latin-1").split("\r\n")
            del self._buffer[: end + 4]
            version, _, rest = lines[0].partition(" ")
            code = rest[:3]
            if not version.startswith("HTTP/1.") or not code.isdigit():
                raise NotHTTP("the peer does not speak HTTP/1.x: no status line in its answer")
            status = int(code)
            if 100 <= status < 200:
                continue
            headers = Headers()
            for line in lines[1:]:
                name, sep, value = line.partition(":")
                if not sep:
                    raise NotHTTP("a header line without a colon in the response head")
                name, value = name.strip().lower(), value.strip()
                headers[name] = f"{headers[name]}, {value}" if name in headers else value
            self._set_head(version, status, headers)
            return

    def _set_head(self, version: str, status: int, headers: Headers) -> None:
        self.status, self.headers = status, headers
        connection = headers.get("connection", "").lower()
        self.keep_alive = "close" not in connection and (
            version != "HTTP/1.0" or "keep-alive" in connection
        )
        if "chunked" in headers.get("transfer-encoding", "").lower():
            self._framing = _CHUNKED
        elif headers.get("content-length") is not None:
            try:
                self._left = int(headers["content-length"])
            except ValueError:
                raise NotHTTP("a Content-Length that is not a number") from None
            self._framing = _DONE if self._left == 0 or status in (204, 304) else _LENGTH
        elif status in (204, 304):
            self._framing = _DONE
        else:
            self._framing, self.keep_alive = _CLOSE, False
        coding = headers.get("content-encoding", "identity").lower()
        if coding in ("gzip", "deflate"):
            import zlib

            self._decoder = zlib.decompressobj(31 if coding == "gzip" else 15)
        self.head.set_result(None)

    def _parse_body(self, at: float) -> None:
        buffer = self._buffer
        if self._framing == _CLOSE:
            self._emit(bytes(buffer), at)
            buffer.clear()
        elif self._framing == _LENGTH:
            take = min(self._left, len(buffer))
            self._emit(bytes(buffer[:take]), at)
            del buffer[:take]
            self._left -= take
            if not self._left:
                self._end()
        while self._framing == _CHUNKED and buffer:
            if self._left > 0:
                take = min(self._left, len(buffer))
                self._emit(bytes(buffer[:take]), at)
                del buffer[:take]
                self._left -= take
                self._chunk_end = not self._left
                continue
            end = buffer.find(b"\r\n")
            if end < 0:
                if len(buffer) > MAX_HEAD:
                    raise NotHTTP("a chunk size line too long")
                return
            line = bytes(buffer[:end])
            del buffer[: end + 2]
            if self._chunk_end:  # the CRLF after a chunk's data
                if line:
                    raise NotHTTP("chunk data longer than its size")
                self._chunk_end = False
                continue
            if self._left == -1:  # trailers: until an empty line
                if not line:
                    self._end()
                continue
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise NotHTTP("a chunk size line that is not a number") from None
            self._left = size if size else -1

    def _emit(self, data: bytes, at: float) -> None:
        if self._decoder is not None:
            data = self._decoder.decompress(data)
        if data:
            self._pieces.append((data, at))

    def _end(self) -> None:
        if self._buffer:  # never a pipelined answer: none was asked for
            raise NotHTTP("bytes past the end of the response (its Content-Length or last chunk)")
        if self._decoder is not None and (rest := self._decoder.flush()):
            self._pieces.append((rest, time.perf_counter()))
        self._framing = _DONE

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- read by the caller ----------------------------------------------------------------------

    async def _next(self) -> tuple[bytes, float] | None:
        while not self._pieces:
            if self.done:
                return None
            if self._error is not None:
                raise self._error
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._pieces.popleft()

    async def iter_timed(self) -> AsyncIterator[tuple[bytes, float]]:
        """Each piece of the body with the time (``time.perf_counter``) it arrived."""
        while (piece := await self._next()) is not None:
            yield piece

    async def iter_any(self) -> AsyncIterator[bytes]:
        while (piece := await self._next()) is not None:
            yield piece[0]

    async def read(self, limit: int = -1) -> bytes:
        """The whole body, or (``limit`` >= 0) at least one piece and at most ``limit`` bytes."""
        out = bytearray()
        while limit < 0 or len(out) < limit:
            piece = await self._next()
            if piece is None:
                break
            out += piece[0]
            if limit >= 0:
                break
        return bytes(out if limit < 0 else out[:limit])

    def release(self) -> None:
        """Give the connection back to the pool when the response ended cleanly, else close it."""
        self._connection.release(self)


class _Connection(asyncio.Protocol):
    def __init__(self, pool: list[_Connection]) -> None:
        self.pool = pool
        self.transport: asyncio.Transport | None = None
        self.response: Response | None = None
        self.closed = False
        self.used = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        if self.response is None:  # nothing was asked: not a connection to reuse
            self.close()
            return
        self.response.feed(data, time.perf_counter())

    def eof_received(self) -> bool:
        self.closed = True
        if self.response is not None:
            self.response.fail(BrokenResponse("the server closed the connection"), eof=True)
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.response is not None:
            closed = BrokenResponse("the server closed the connection")
            self.response.fail(exc or closed, eof=exc is None)

    def send(self, head: bytes, body: bytes) -> Response:
        assert self.transport is not None
        self.used = True
        self.response = response = Response(self)
        self.transport.write(head + body if len(body) < 1 << 16 else head)
        if len(body) >= 1 << 16:
            self.transport.write(body)
        return response

    def release(self, response: Response) -> None:
        if self.response is not response:
            return
        self.response = None
        if response.done and response.keep_alive and not self.closed:
            self.pool.append(self)
        else:
            self.close()

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class Pool:
    """Keep-alive connections per origin, at most ``max_connections`` idle ones kept."""

    def __init__(
        self, max_connections: int, connect_timeout_s: float | None = None, direct: bool = False
    ) -> None:
        self.max_connections = max(1, max_connections)
        self.connect_timeout_s = connect_timeout_s
        """How long a new connection (TCP and TLS) may take; None: as long as the OS allows."""
        self.direct = direct
        """No proxy whatever the environment says (the embedded server, the project's child)."""
        self._routes: dict[tuple[str, str, int], Route] = {}
        self._idle: dict[tuple[str, str, int], list[_Connection]] = {}
        self._all: set[_Connection] = set()
        self.stale_retries = 0
        """Requests sent again because their pooled connection had been closed by the server."""

    async def request(
        self, method: str, url: str, headers: dict[str, str], body: bytes = b""
    ) -> Response:
        """Send one request; the response once its head has arrived."""
        parts = urlsplit(url)
        scheme, host = parts.scheme.lower(), parts.hostname or ""
        if scheme not in ("http", "https") or not host:
            raise WireError("connect", f"ConnectError: not an http(s) URL: {url}")
        port = parts.port or (443 if scheme == "https" else 80)
        origin = (scheme, host, port)
        via = self._route(origin, url)
        default = port == (443 if scheme == "https" else 80)
        name = f"[{host}]" if ":" in host else host
        authority = name if default else f"{name}:{port}"
        target = f"{parts.path or '/'}{'?' + parts.query if parts.query else ''}"
        if via.proxy is not None and not via.tunnel:  # absolute form, to the proxy
            target = f"{scheme}://{authority}{target}"
        lines = [f"{method} {target} HTTP/1.1", f"Host: {authority}"]
        if via.proxy is not None and not via.tunnel and via.authorization:
            lines.append(f"Proxy-Authorization: {via.authorization}")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        lines += [f"{key}: {value}" for key, value in headers.items()]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        idle = self._idle.setdefault(origin, [])
        for spare in range(self.max_connections, -1, -1):
            connection = self._take(idle)
            reused = connection is not None
            if connection is None:
                connection = await self._connect(origin, idle)
            response = connection.send(head, body)
            try:
                await response.head
                return response
            except asyncio.CancelledError:
                connection.close()
                raise
            except NotHTTP as exc:  # an answer, and not HTTP: no stale connection to retry
                connection.close()
                message = f"invalid response from {host}:{port}: {exc}"
                raise WireError("read", message, NotHTTP.failure) from exc
            except READ_ERRORS as exc:
                connection.close()
                if not (reused and spare):
                    raise WireError("read", f"ReadError: no response: {exc!r}") from exc
                self.stale_retries += 1
        raise AssertionError("unreachable: the last try raises or returns")

    def _take(self, idle: list[_Connection]) -> _Connection | None:
        while idle:
            connection = idle.pop()
            if not connection.closed:
                return connection
            self._all.discard(connection)
        return None

    def _route(self, origin: tuple[str, str, int], url: str) -> Route:
        """The origin's route (:mod:`stages.network.tunnel`), decided once per pool."""
        via = self._routes.get(origin)
        if via is None:
            try:
                via = self._routes[origin] = route(url, self.direct)
            except ValueError as exc:
                raise WireError("connect", f"ProxyError: {exc}") from exc
        return via

    async def _connect(self, origin: tuple[str, str, int], idle: list[_Connection]) -> _Connection:
        scheme, host, port = origin
        loop = asyncio.get_running_loop()
        tls = tls_context() if scheme == "https" else None
        via = self._routes[origin]
        try:
            async with asyncio.timeout(self.connect_timeout_s):
                if via.proxy is None:
                    _, connection = await loop.create_connection(
                        lambda: _Connection(idle), host, port, ssl=tls
                    )
                elif not via.tunnel:
                    _, connection = await loop.create_connection(
                        lambda: _Connection(idle), *via.proxy
                    )
                else:
                    sock = await open_tunnel(via, host, port)
                    _, connection = await loop.create_connection(
                        lambda: _Connection(idle), sock=sock, ssl=tls, server_hostname=host
                    )
        except TimeoutError as exc:
            raise WireError(
                "connect",
                f"ConnectTimeout: no connection to {host}:{port} "
                f"within {self.connect_timeout_s:g} s",
            ) from exc
        except ssl.SSLCertVerificationError as exc:
            reason = exc.verify_message or exc.reason
            message = f"TLS: the certificate of {host}:{port} is not trusted ({reason})"
            raise WireError("connect", message, "tls") from exc
        except ssl.SSLError as exc:
            message = f"TLS: the handshake with {host}:{port} failed ({exc.reason})"
            raise WireError("connect", message, "tls") from exc
        except OSError as exc:
            through = f" through the proxy {via.proxy_origin}" if via.proxy else ""
            raise WireError(
                "connect", f"ConnectError: cannot connect to {host}:{port}{through}: {exc}"
            ) from exc
        self._all.add(connection)
        if len(self._all) > 4 * self.max_connections:
            self._all = {c for c in self._all if not c.closed}
        return connection

    def close(self) -> None:
        for connection in self._all:
            connection.close()
        self._all.clear()
        self._idle.clear()
