"""One network policy for every request (issue 31): proxies as httpx reads them, on the preflight
and the sending wire alike; TLS verified (``SSL_CERT_FILE`` trusted, an unknown CA named as
such); no redirect followed with the key; a peer that breaks HTTP gets a message, not a
traceback, and a request in flight is journaled with its kind. Loopback servers only
(``tests/net_servers.py``)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from infer_helpers import eval_row, write_dataset, write_params
from net_servers import HIDDEN, Background, Proxy, TLSStub, make_ca, read_request
from stub_server import StubServer

from stages.cli import main
from stages.network.wire import Pool, WireError

KEY = "sk-net31-4c1f7a2b9e0d-0123456789abcdefghij-never-leaves"
PROXY_VARS = [
    f"{name}{end}" for name in ("http", "https", "all", "no") for end in ("_proxy", "_PROXY")
]
BODY = (
    b'data: {"object": "chat.completion.chunk", "model": "stub-model", "choices": [{"index": 0,'
    b' "delta": {"role": "assistant", "content": "Answer: 42"}, "finish_reason": "stop"}]}\n\n'
    b"data: [DONE]\n\n"
)
MODELS = (
    b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"data":[]}'
)
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
MANY = b"".join(b"X-Header-%d: %d\r\n" % (i, i) for i in range(120))
"""More headers than http.client (urllib) takes: 100."""


def _sse(extra: bytes = b"", past: bytes = b"") -> bytes:
    length = b"Content-Length: %d\r\n\r\n" % len(BODY)
    return b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n" + extra + length + BODY + past


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No proxy variable but the test's own; the key set."""
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    return monkeypatch


def _endpoint(post: bytes, get: bytes = MODELS) -> Any:
    """A handler answering POSTs with ``post``, ``GET .../models`` with ``get``, else 404."""

    async def handle(reader: Any, writer: asyncio.StreamWriter) -> None:
        while True:
            method, target, _, _ = await read_request(reader)
            answer = post if method == "POST" else get if target.endswith("/models") else NOT_FOUND
            writer.write(answer)
            await writer.drain()

    return handle


def _records(project: Path) -> list[dict[str, Any]]:
    lines = (project / "results/w/responses.jsonl").read_text().splitlines()
    return sorted((json.loads(line) for line in lines), key=lambda r: r["id"])


def _pieces_of_key(root: Path, size: int = 8) -> list[str]:
    """Files under ``root`` holding any ``size``-character piece of the key."""
    pieces = {KEY[i : i + size].encode() for i in range(len(KEY) - size + 1)}
    return [
        str(p) for p in root.rglob("*") if p.is_file() and any(x in p.read_bytes() for x in pieces)
    ]


# -- proxies -----------------------------------------------------------------------------------


def test_an_http_endpoint_reachable_only_through_the_proxy_is_sent_to_through_it(
    project: Path, stub: StubServer, env: pytest.MonkeyPatch
) -> None:
    proxy = Proxy()
    with Background(proxy.handle) as server:
        env.setenv("HTTP_PROXY", f"http://atlas:p%40ss@127.0.0.1:{server.port}")
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
        write_params(project, f"http://{HIDDEN}:{stub.port}/v1", run={"concurrency": 2})
        assert main(["infer", "w"]) == 0
    assert [(r["output"], r["error"]) for r in _records(project)] == [("Answer: 42", None)] * 3
    origin = f"http://{HIDDEN}:{stub.port}"
    assert ("GET", f"{origin}/v1/models") in proxy.seen  # the preflight, absolute form
    chats = [seen for seen in proxy.seen if seen[0] == "POST"]
    assert chats == [("POST", f"{origin}/v1/chat/completions")] * 3  # the wire, absolute form
    assert proxy.credentials == {"Basic " + base64.b64encode(b"atlas:p@ss").decode()}
    assert {h["authorization"] for h in stub.stats.headers} == {f"Bearer {KEY}"}
    manifest = json.loads((project / "results/w/manifest.json").read_text())
    assert manifest["http_client"] == "http11"


def test_an_https_endpoint_behind_the_proxy_is_tunnelled_with_connect(
    project: Path, env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    ca, context = make_ca(tmp_path)
    env.setenv("SSL_CERT_FILE", str(ca))
    env.delenv("SSL_CERT_DIR", raising=False)
    proxy = Proxy()
    with TLSStub(context) as stub, Background(proxy.handle) as server:
        env.setenv("HTTPS_PROXY", f"http://127.0.0.1:{server.port}")
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
        write_params(project, f"https://{HIDDEN}:{stub.port}/v1", run={"concurrency": 1})
        assert main(["infer", "w"]) == 0
        assert stub.stats.requests == 3
    assert [(r["output"], r["error"]) for r in _records(project)] == [("Answer: 42", None)] * 3
    assert {seen for seen in proxy.seen} == {("CONNECT", f"{HIDDEN}:{stub.port}")}
    assert len(proxy.seen) >= 2  # the preflight's tunnel and the wire's


def test_behind_a_proxy_reached_over_tls_the_run_sends_through_httpx_and_says_so(
    project: Path, stub: StubServer, env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The wire speaks to http:// proxies only; an https:// one (its CA from SSL_CERT_FILE, as
    for endpoints) is reached by httpx for the whole run, and the manifest names it."""
    ca, context = make_ca(tmp_path)
    env.setenv("SSL_CERT_FILE", str(ca))
    proxy = Proxy()
    with Background(proxy.handle, tls=context) as server:
        env.setenv("HTTP_PROXY", f"https://127.0.0.1:{server.port}")
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
        write_params(project, f"http://{HIDDEN}:{stub.port}/v1", run={"concurrency": 2})
        assert main(["infer", "w"]) == 0
    assert [(r["output"], r["error"]) for r in _records(project)] == [("Answer: 42", None)] * 3
    chats = [seen for seen in proxy.seen if seen[0] == "POST"]
    assert chats == [("POST", f"http://{HIDDEN}:{stub.port}/v1/chat/completions")] * 3
    manifest = json.loads((project / "results/w/manifest.json").read_text())
    assert manifest["http_client"] == "httpx"


def test_no_proxy_is_honoured_by_the_preflight_and_the_wire(
    project: Path, stub: StubServer, env: pytest.MonkeyPatch
) -> None:
    proxy = Proxy()
    with Background(proxy.handle) as server:
        env.setenv("HTTP_PROXY", f"http://127.0.0.1:{server.port}")
        env.setenv("NO_PROXY", "example.org,127.0.0.1")
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
        write_params(project, stub.url)
        assert main(["infer", "w"]) == 0
        assert server.connections == 0
    assert stub.stats.requests == 2


HOSTS = ["127.0.0.1", "localhost", "api.example.org", "example.org", "[::1]", HIDDEN]


@settings(max_examples=150, deadline=None)
@given(
    url=st.builds(
        "{}://{}:{}/v1".format,
        st.sampled_from(["http", "https"]),
        st.sampled_from(HOSTS),
        st.sampled_from([80, 443, 8080]),
    ),
    proxies=st.dictionaries(
        st.sampled_from(["HTTP_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"]),
        st.sampled_from(["http://127.0.0.1:3128", "127.0.0.1:8888", "http://u:p@proxy.test:1"]),
    ),
    exceptions=st.dictionaries(
        st.sampled_from(["NO_PROXY", "no_proxy"]),
        st.lists(
            st.sampled_from(
                ["*", "example.org", ".example.org", "127.0.0.1", "localhost", "::1", HIDDEN]
            ),
            max_size=3,
        ).map(",".join),
    ),
)
def test_the_wire_takes_the_proxy_httpx_would_take(
    url: str, proxies: dict[str, str], exceptions: dict[str, str]
) -> None:
    """The wire's route and httpx's own transport choice agree, whatever the environment."""
    import httpx

    from stages.network.policy import proxy_for

    def where(proxy: Any) -> tuple[str, str, int] | None:
        if proxy is None:
            return None
        scheme, host = proxy.scheme, proxy.host
        scheme = scheme.decode() if isinstance(scheme, bytes) else scheme
        host = host.decode() if isinstance(host, bytes) else host
        return scheme, host, proxy.port or {"http": 80, "https": 443}[scheme]

    clean = {k: v for k, v in os.environ.items() if k not in PROXY_VARS}
    with mock.patch.dict(os.environ, {**clean, **proxies, **exceptions}, clear=True):
        with httpx.Client(trust_env=True) as client:
            pool = client._transport_for_url(httpx.URL(url))._pool  # type: ignore[attr-defined]
        ours = proxy_for(url)
    assert where(None if ours is None else httpx.URL(ours)) == where(
        getattr(pool, "_proxy_url", None)
    )


# -- TLS ---------------------------------------------------------------------------------------


def test_an_unknown_ca_is_a_tls_failure_and_ssl_cert_file_trusts_it(
    project: Path, env: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ca, context = make_ca(tmp_path)
    env.delenv("SSL_CERT_FILE", raising=False)
    env.delenv("SSL_CERT_DIR", raising=False)
    with TLSStub(context) as stub:
        url = f"https://127.0.0.1:{stub.port}/v1"
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
        write_params(project, url)
        assert main(["infer", "w"]) == 2
        err = capsys.readouterr().err
        assert err.startswith(
            f"atlas: error: endpoint {url}: TLS: the certificate of https://127.0.0.1:{stub.port}"
            " is not trusted ("
        )
        assert err.endswith("); set SSL_CERT_FILE or SSL_CERT_DIR to its CA\n")
        assert "unreachable" not in err and stub.stats.requests == 0
        env.setenv("SSL_CERT_FILE", str(ca))
        assert main(["infer", "w"]) == 0
        assert stub.stats.requests == 2


def test_the_wire_names_an_unknown_ca_a_tls_failure(
    tmp_path: Path, env: pytest.MonkeyPatch
) -> None:
    _, context = make_ca(tmp_path)
    env.delenv("SSL_CERT_FILE", raising=False)
    env.delenv("SSL_CERT_DIR", raising=False)

    with TLSStub(context) as stub:
        url = f"https://127.0.0.1:{stub.port}/v1/chat/completions"
        error = asyncio.run(_wire_error(url, "sent to an untrusted certificate"))
    assert error.failure == "tls"
    assert str(error).startswith(f"TLS: the certificate of 127.0.0.1:{stub.port} is not trusted")


# -- redirects ---------------------------------------------------------------------------------


def _redirect(to: str) -> Any:
    async def handle(reader: Any, writer: asyncio.StreamWriter) -> None:
        while True:
            await read_request(reader)
            writer.write(
                f"HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\n\r\n".encode()
            )
            await writer.drain()

    return handle


@pytest.mark.parametrize("scheme", ["http", "https"])
def test_a_redirecting_endpoint_stops_the_run_and_the_key_goes_nowhere_else(
    scheme: str,
    project: Path,
    env: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ca, context = make_ca(tmp_path)
    env.setenv("SSL_CERT_FILE", str(ca))
    with Background(_endpoint(MODELS)) as other:
        elsewhere = f"http://127.0.0.1:{other.port}"
        tls = context if scheme == "https" else None
        with Background(_redirect(f"{elsewhere}/v1/models?api_key={KEY}"), tls) as first:
            url = f"{scheme}://127.0.0.1:{first.port}/v1"
            write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
            write_params(project, url)
            assert main(["infer", "w"]) == 2
        assert other.connections == 0 and KEY.encode() not in other.received
    assert capsys.readouterr().err == (
        f"atlas: error: endpoint {url}: HTTP 302 redirect from {scheme}://127.0.0.1:{first.port} "
        f"to {elsewhere}: not followed, requests carry the API key; set model.base_url to the "
        "URL that answers\n"
    )


def test_a_redirect_on_the_wire_is_journaled_as_its_own_kind(
    project: Path, env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with Background(_endpoint(MODELS)) as other:
        elsewhere = f"http://127.0.0.1:{other.port}"
        moved = f"HTTP/1.1 307 Moved\r\nLocation: {elsewhere}/steal?k={KEY}\r\n"
        with Background(_endpoint((moved + "Content-Length: 0\r\n\r\n").encode())) as first:
            write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
            write_params(project, f"http://127.0.0.1:{first.port}/v1", run={"max_retries": 2})
            assert main(["infer", "w"]) == 3
        assert other.connections == 0
    message = (
        f"HTTP 307 redirect from http://127.0.0.1:{first.port} to {elsewhere}: not followed, "
        "requests carry the API key; set model.base_url to the URL that answers"
    )
    assert [(r["error"], r["attempts"]) for r in _records(project)] == [
        ({"kind": "redirect", "message": message}, 1)
    ] * 2  # not retried
    assert "every request failed with redirects, not followed" in capsys.readouterr().err
    assert _pieces_of_key(project) == []


# -- peers that break HTTP ---------------------------------------------------------------------


async def _ssh(reader: Any, writer: asyncio.StreamWriter) -> None:
    """What an SSH server says to an HTTP client."""
    writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"Invalid SSH identification string.\r\n")
    await writer.drain()


def test_the_preflight_on_a_port_that_does_not_speak_http_is_a_message(
    project: Path, env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with Background(_ssh) as server:
        url = f"http://127.0.0.1:{server.port}/v1"
        write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
        write_params(project, url)
        assert main(["infer", "w"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"atlas: error: endpoint {url} is unreachable: http://127.0.0.1:{server.port} does not "
        "speak HTTP/1.1 ("
    )
    assert "Traceback" not in err and "SSH" not in err


def test_metrics_from_a_port_that_does_not_speak_http_or_with_many_headers() -> None:
    from stages.serving.server_metrics import scrape

    with Background(_ssh) as server:
        assert scrape(f"http://127.0.0.1:{server.port}", 2.0) is None
    page = b"llamacpp:n_decode_total 7\n"
    answer = b"HTTP/1.1 200 OK\r\n" + MANY + b"Content-Length: %d\r\n\r\n" % len(page) + page
    with Background(_endpoint(NOT_FOUND, NOT_FOUND)) as server:
        assert scrape(f"http://127.0.0.1:{server.port}", 2.0) is None

    async def metrics(reader: Any, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(answer)
        await writer.drain()

    with Background(metrics) as server:
        assert scrape(f"http://127.0.0.1:{server.port}", 2.0) == {"llamacpp:n_decode": 7.0}


def test_more_than_100_headers_pass_the_preflight_and_the_wire(
    project: Path, env: pytest.MonkeyPatch
) -> None:
    models = b"HTTP/1.1 200 OK\r\n" + MANY + MODELS.split(b"\r\n", 1)[1]
    with Background(_endpoint(_sse(MANY), models)) as server:
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(2)])
        write_params(project, f"http://127.0.0.1:{server.port}/v1")
        assert main(["infer", "w"]) == 0
    assert [(r["output"], r["error"]) for r in _records(project)] == [("Answer: 42", None)] * 2


BROKEN = {
    "not HTTP": (b"SSH-2.0-OpenSSH_9.6\r\n", "the peer does not speak HTTP/1.x: no status line"),
    "head too long": (
        b"HTTP/1.1 200 OK\r\nX-Long: " + b"a" * 70000 + b"\r\n\r\n",
        "a response head longer than 65536 bytes",
    ),
    "key in a malformed header": (
        b"HTTP/1.1 200 OK\r\nX-Padding-" + b"p" * 50 + b" " + KEY.encode() + b"\r\n\r\n",
        "a header line without a colon in the response head",
    ),
    "key in a malformed status line": (
        b"HTTP/1.1 OK " + b"q" * 60 + KEY.encode() + b"\r\n\r\n",
        "the peer does not speak HTTP/1.x: no status line",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_an_answer_that_breaks_http_is_journaled_as_invalid(
    case: str, project: Path, env: pytest.MonkeyPatch
) -> None:
    answer, said = BROKEN[case]
    with Background(_endpoint(answer)) as server:
        write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
        write_params(project, f"http://127.0.0.1:{server.port}/v1")
        assert main(["infer", "w"]) == 3
    [record] = _records(project)
    assert record["error"]["kind"] == "invalid_response" and record["attempts"] == 1
    assert record["error"]["message"].startswith(
        f"invalid response from 127.0.0.1:{server.port}: {said}"
    )
    assert _pieces_of_key(project) == []


def test_bytes_past_content_length_are_journaled_as_invalid(
    project: Path, env: pytest.MonkeyPatch
) -> None:
    smuggled = b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"
    with Background(_endpoint(_sse(past=smuggled))) as server:
        write_dataset(project, "eval-t-v1", "eval", [eval_row(1)])
        write_params(project, f"http://127.0.0.1:{server.port}/v1")
        assert main(["infer", "w"]) == 3
    [record] = _records(project)
    assert record["error"] == {
        "kind": "invalid_response",
        "message": "invalid response: bytes past the end of the response (its Content-Length "
        "or last chunk)",
    }


@settings(max_examples=40, deadline=None)
@given(pad=st.integers(0, 120), status=st.booleans())
def test_no_piece_of_a_key_in_a_broken_line_reaches_a_wire_message(pad: int, status: bool) -> None:
    """The wire's messages quote none of the server's bytes: no cut can leave a piece behind."""
    line = ("a" * pad + KEY) if status else f"HTTP/1.1 200 OK\r\nX-{'b' * pad} {KEY}"

    async def handle(reader: Any, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(line.encode() + b"\r\n\r\n")
        await writer.drain()

    async def send() -> str:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            url = f"http://127.0.0.1:{port}/v1"
            return str(await _wire_error(url, "a broken head was taken as an answer"))

    message = asyncio.run(send())
    assert not any(KEY[i : i + 6] in message for i in range(len(KEY) - 5)), message


def test_the_embedded_server_is_reached_directly_whatever_the_proxy(
    stub: StubServer, env: pytest.MonkeyPatch
) -> None:
    """The embedded server is the project's own child on loopback (``direct``): a proxy in the
    environment (here a dead port) is for the endpoints the user names."""
    from stages.network.policy import ControlError, control_get

    env.setenv("HTTP_PROXY", "http://127.0.0.1:9")
    assert control_get(f"{stub.url}/models", {}, 2.0, direct=True).status_code == 200
    with pytest.raises(ControlError, match=r"\(through the proxy http://127.0.0.1:9\)$"):
        control_get(f"{stub.url}/models", {}, 2.0)

    async def send(direct: bool) -> int:
        pool = Pool(1, direct=direct)
        try:
            body = b'{"model": "m", "messages": [], "stream": false}'
            response = await pool.request("POST", f"{stub.url}/chat/completions", {}, body)
            await response.read()
            response.release()
            return response.status
        finally:
            pool.close()

    assert asyncio.run(send(True)) == 200
    with pytest.raises(WireError, match="through the proxy http://127.0.0.1:9"):
        asyncio.run(send(False))


def test_a_proxy_refusing_connect_is_named_with_its_status(env: pytest.MonkeyPatch) -> None:
    async def refuse(reader: Any, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()

    with Background(refuse) as server:
        env.setenv("HTTPS_PROXY", f"http://127.0.0.1:{server.port}")
        url = f"https://{HIDDEN}/v1/chat/completions"
        error = asyncio.run(_wire_error(url, "sent through a proxy that refused the tunnel"))
    proxy = f"http://127.0.0.1:{server.port}"
    assert str(error) == (
        f"ConnectError: cannot connect to {HIDDEN}:443 through the proxy {proxy}: the proxy "
        f"{proxy} refused CONNECT (HTTP 407)"
    )
    assert (error.kind, error.failure) == ("connect", "connection")


async def _wire_error(url: str, refused: str) -> WireError:
    """The error the wire raises posting to ``url``; ``refused`` says what an answer would mean."""
    pool = Pool(1)
    try:
        await pool.request("POST", url, {}, b"{}")
    except WireError as exc:
        return exc
    finally:
        pool.close()
    raise AssertionError(refused)
