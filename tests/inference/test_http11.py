"""The lean HTTP/1.1 wire (issue 23): framing, keep-alive, errors and arrival times, against a
raw asyncio server that sends exactly the bytes each test gives it."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from infer_helpers import eval_row, write_dataset, write_params
from stub_server import StubServer

from stages.cli import main
from stages.network import transport
from stages.network.transport import Wire
from stages.network.wire import BrokenResponse, Pool, WireError

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"


async def _request_head(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")]
    length = int(lines[0].split(b":")[1]) if lines else 0
    await reader.readexactly(length)
    return head


def _serve(*answers: bytes, pieces: int = 1, close: bool = False) -> tuple[Handler, list[int]]:
    """A handler that answers the requests on each connection with ``answers`` in turn, each
    written in ``pieces`` parts; ``close``: the connection is closed after each answer. The
    list counts connections."""
    connections: list[int] = []
    queue = list(answers)

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            while queue:
                await _request_head(reader)
                answer = queue.pop(0)
                step = max(1, -(-len(answer) // pieces))
                for start in range(0, len(answer), step):
                    writer.write(answer[start : start + step])
                    await writer.drain()
                    await asyncio.sleep(0.002)
                if close:
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        writer.close()

    return handle, connections


async def _with_server(handler: Handler, body: Callable[[str], Awaitable[None]]) -> None:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        await body(f"http://127.0.0.1:{port}/v1/chat/completions")


def _run(handler: Handler, body: Callable[[str], Awaitable[None]]) -> None:
    asyncio.run(_with_server(handler, body))


CHUNKED = (
    HEAD + b"Transfer-Encoding: chunked\r\n\r\n"
    b"5;ext=1\r\ndata:\r\n"
    b'B\r\n {"a": 1}\n\n\r\n'
    b"0\r\nX-Trailer: yes\r\n\r\n"
)


@pytest.mark.parametrize("pieces", [1, 3, len(CHUNKED)])
def test_chunked_body_with_extensions_and_trailers_in_any_split(pieces: int) -> None:
    handler, connections = _serve(CHUNKED, CHUNKED, pieces=pieces)

    async def body(url: str) -> None:
        pool = Pool(2)
        for _ in range(2):
            response = await pool.request("POST", url, {"Content-Type": "application/json"}, b"{}")
            assert response.status == 200
            assert response.headers.get("CONTENT-TYPE") == "text/event-stream"
            assert await response.read() == b'data: {"a": 1}\n\n'
            response.release()
        assert connections == [1]  # kept alive: both answers on one connection
        pool.close()

    _run(handler, body)


def test_content_length_close_framing_interim_responses_and_gzip() -> None:
    packed = gzip.compress(b"hello, world")
    answers = [
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 429 Too Many\r\nRetry-After: 2\r\n"
        b"Content-Length: 4\r\n\r\nslow",
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n" % len(packed)
        + packed,
        b"HTTP/1.0 200 OK\r\n\r\nuntil the end",
    ]
    handler, connections = _serve(*answers)

    async def body(url: str) -> None:
        pool = Pool(1)
        got = []
        for _ in answers:
            response = await pool.request("POST", url, {}, b"{}")
            got.append(
                (response.status, response.headers.get("retry-after"), await response.read())
            )
            response.release()
        assert got == [
            (429, "2", b"slow"),
            (200, None, b"hello, world"),
            (200, None, b"until the end"),
        ]
        assert connections == [1]
        pool.close()

    _run(handler, body)


def test_not_http_and_refused_connections_are_wire_errors() -> None:
    handler, _ = _serve(b"SSH-2.0-OpenSSH\r\n\r\n")

    async def body(url: str) -> None:
        pool = Pool(1)
        with pytest.raises(WireError) as e:
            await pool.request("POST", url, {}, b"{}")
        port = url.split(":")[2].split("/")[0]
        assert str(e.value) == (
            f"invalid response from 127.0.0.1:{port}: the peer does not speak HTTP/1.x: no "
            "status line in its answer"
        )
        assert (e.value.kind, e.value.failure) == ("read", "invalid_response")
        pool.close()

    _run(handler, body)

    async def refused() -> None:
        server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        server.close()
        await server.wait_closed()
        with pytest.raises(
            WireError, match=f"ConnectError: cannot connect to 127.0.0.1:{port}"
        ) as e:
            await Pool(1).request("POST", f"http://127.0.0.1:{port}/v1", {}, b"{}")
        assert e.value.kind == "connect"

    asyncio.run(refused())


def test_a_body_cut_off_mid_chunk_raises_broken_response() -> None:
    handler, _ = _serve(
        HEAD + b"Transfer-Encoding: chunked\r\n\r\n20\r\ndata: only part", close=True
    )

    async def body(url: str) -> None:
        pool = Pool(1)
        response = await pool.request("POST", url, {}, b"{}")
        pieces = []
        with pytest.raises(BrokenResponse):
            async for piece in response.iter_any():
                pieces.append(piece)
        assert b"".join(pieces) == b"data: only part"
        response.release()
        pool.close()

    _run(handler, body)


def test_a_pooled_connection_the_server_closed_is_retried_once_on_a_new_one() -> None:
    answer = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    handler, connections = _serve(answer, answer, close=True)  # closes without saying so

    async def body(url: str) -> None:
        wire = Wire(2)
        for _ in range(2):
            response = await wire.post(url, {}, b"{}")
            assert await response.read() == b"ok"
            response.release()
            await asyncio.sleep(0.05)  # the server's close has arrived: the pool drops it
        assert connections == [1, 1] and wire.stale_retries == 0
        await wire.aclose()

    _run(handler, body)


def test_pieces_carry_the_time_they_arrived() -> None:
    handler, _ = _serve(CHUNKED, pieces=3)

    async def body(url: str) -> None:
        pool = Pool(1)
        sent = time.perf_counter()
        response = await pool.request("POST", url, {}, b"{}")
        await asyncio.sleep(0.05)  # the pieces wait in the response: their times do not move
        read_at = time.perf_counter()
        times = [at async for _, at in response.iter_timed()]
        assert times and all(sent < at < read_at - 0.04 for at in times)
        assert times == sorted(times)
        response.release()
        pool.close()

    _run(handler, body)


def test_health_check_answers_for_any_status_and_not_for_a_dead_port() -> None:
    handler, _ = _serve(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")

    async def body(url: str) -> None:
        wire = Wire(1)
        assert await wire.healthy(url, {}, 1.0) is True
        await wire.aclose()
        assert await Wire(1).healthy("http://127.0.0.1:9/", {}, 1.0) is False

    _run(handler, body)


def test_the_wire_journals_the_answers_and_the_manifest_names_it(
    project: Path, stub: StubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(transport.ENV, "")
    stub.config.fail_first, stub.config.fail_status = 1, 500  # one retried failure
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(6)])
    write_params(project, stub.url, run={"concurrency": 3, "max_retries": 1})
    assert main(["infer", "w"]) == 0
    lines = (project / "results/w/responses.jsonl").read_text().splitlines()
    records = sorted((json.loads(line) for line in lines), key=lambda r: r["id"])
    assert [(r["id"], r["output"], r["error"]) for r in records] == [
        (f"q-{i:04d}", "Answer: 42", None) for i in range(6)
    ]
    assert sorted(r["attempts"] for r in records) == [1, 1, 1, 1, 1, 2]
    assert all(r["ttft_s"] is not None and len(r["token_s"]) == 4 for r in records)
    manifest = json.loads((project / "results/w/manifest.json").read_text())
    assert manifest["http_client"] == "http11"


def _certificate(tmp_path: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "atlas test")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(key, hashes.SHA256())
    )
    cert, private = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    private.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert, private


def test_https_is_verified_and_works_with_a_trusted_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ssl

    cert, key = _certificate(tmp_path)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    handler, _ = _serve(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecret")

    async def body() -> None:
        server = await asyncio.start_server(handler, "127.0.0.1", 0, ssl=served)
        url = f"https://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1/chat/completions"
        async with server:
            with pytest.raises(WireError, match="TLS: the certificate of 127.0.0.1:") as refused:
                await Pool(1).request("POST", url, {}, b"{}")  # the system's store: unknown
            assert refused.value.failure == "tls"
            monkeypatch.setenv("SSL_CERT_FILE", str(cert))
            monkeypatch.delenv("SSL_CERT_DIR", raising=False)
            pool = Pool(1)
            response = await pool.request("POST", url, {}, b"{}")
            assert (response.status, await response.read()) == (200, b"secret")
            response.release()
            pool.close()

    asyncio.run(body())


def test_an_unknown_http_client_is_refused_before_anything_is_sent(
    project: Path,
    stub: StubServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(transport.ENV, "aiohtp")
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 2
    err = capsys.readouterr().err
    assert "atlas: error: ATLAS_HTTP_CLIENT='aiohtp' is not an HTTP client: use http11" in err
    assert stub.stats.requests == 0
    assert not (project / "results/w/responses.jsonl").exists()


def test_the_aiohttp_wire_is_gone_with_a_message(
    project: Path,
    stub: StubServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv(transport.ENV, "aiohttp")
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
    write_params(project, stub.url)
    assert main(["infer", "w"]) == 2
    assert capsys.readouterr().err == (
        "atlas: error: ATLAS_HTTP_CLIENT=aiohttp: the aiohttp client was removed (issue 31: one "
        "network policy, on the project's own wire and httpx); unset ATLAS_HTTP_CLIENT\n"
    )
    assert stub.stats.requests == 0
