"""/metrics and /props read with the chat requests' API key (issue 33): against a llama-server
started with a key the server block was null; the key goes only to the endpoint's own origin,
never through a redirect (the network policy, stages/network/policy.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from engine_pages import Traffic, llamacpp_page
from infer_helpers import REPO, eval_row, write_dataset, write_params
from net_servers import Background, read_request
from stub_server import StubConfig, StubServer

from stages.cli import main
from stages.engine.embedded import EngineSettings, server_binary, server_command
from stages.engine.packaged import verified_gguf
from stages.inference.endpoint import Endpoint
from stages.params import ModelParams, resolve_model
from stages.serving.server_metrics import scrape

KEY = "sk-prom33-0f3a9c-metrics-and-props-need-it"


def test_control_headers_only_for_the_endpoints_own_origin() -> None:
    auth = {"Authorization": f"Bearer {KEY}"}
    endpoint = Endpoint(["https://api.example:8443/v1"], auth, ["x"], [None], KEY)
    assert endpoint.control_headers("https://api.example:8443/metrics") == auth
    for other in (
        "https://api.example/metrics",
        "http://api.example:8443/metrics",
        "https://evil.example:8443/metrics",
        "https://api.example.evil:8443/",
    ):
        assert endpoint.control_headers(other) == {}, other  # fmt: skip


class KeyedLlamaServer(StubServer):
    """A llama-server started with ``--api-key``: every route needs the key (its 401 body),
    ``/metrics`` is llama.cpp's page counting the chat requests answered (10 prompt tokens each,
    4 of them from the cache, 2 generated)."""

    def __init__(self, key: str, metrics_redirect: str | None = None) -> None:
        super().__init__(StubConfig(props_template="{{ keyed template }}"))
        self.key, self.metrics_redirect = key, metrics_redirect
        self.control: list[tuple[str, bool]] = []
        """Each GET: its path and whether it carried the key."""

    async def _answer(
        self, method: str, path: str, headers: dict[str, str], raw: bytes, writer: Any,
        received: float = 0.0, reader: asyncio.StreamReader | None = None,
    ) -> bool:  # fmt: skip
        keyed = headers.get("authorization") == f"Bearer {self.key}"
        if method == "GET":
            self.control.append((path, keyed))
        if not keyed:
            error = {"message": "Invalid API Key", "type": "authentication_error", "code": 401}
            self._send(writer, 401, {"error": error})
            return True
        if method == "GET" and path == "/metrics" and self.metrics_redirect:
            self._send(writer, 307, {}, {"Location": self.metrics_redirect})
            return True
        if method == "GET" and path == "/metrics":
            n = self.stats.requests
            page = llamacpp_page(Traffic(10 * n, 4 * n, 2 * n, 0, 0, 0.0)).encode()
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(page), page))  # fmt: skip
            return True
        return await super()._answer(method, path, headers, raw, writer, received, reader)


def _run(
    project: Path, monkeypatch: pytest.MonkeyPatch, server: KeyedLlamaServer
) -> tuple[Any, Any, Any]:
    """``atlas infer`` of three items, then a load level sending them again: the main pass's
    and the level's server blocks, and the manifest."""
    monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
    write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
    level = {"mode": "concurrency", "levels": [2]}
    write_params(project, server.url, run={"concurrency": 1},
                 workloads={"w": {"dataset": "eval-t-v1", "load": level}})  # fmt: skip
    assert main(["infer", "w"]) == 0
    serving = json.loads((project / "metrics" / "w.serving.json").read_text())
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    return serving["main"]["server"], serving["concurrency"]["2"]["server"], manifest


def test_metrics_and_props_are_read_with_the_chat_requests_key(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with KeyedLlamaServer(KEY) as server:
        block, level, manifest = _run(project, monkeypatch, server)
    assert ("/metrics", True) in server.control and ("/props", True) in server.control
    assert [c for c in server.control if not c[1]] == []
    # each pass's own differences: 3 requests of 10 prompt tokens, 4 of them cached
    for figures_ in (block, level):
        assert figures_ is not None and figures_["metrics_dialect"] == "llamacpp"
        assert (figures_["prompt_tokens_all"], figures_["prefix_cache_hits"]) == (30, 12)
        assert figures_["prefix_cache_hit_rate"] == 0.4 and figures_["prompt_tokens"] == 18
    assert list(manifest["chat_templates"].values()) == ["{{ keyed template }}"]


def test_a_metrics_redirect_to_another_origin_never_carries_the_key(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def listener(reader: Any, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        await writer.drain()

    with Background(listener) as other:
        target = f"http://localhost:{other.port}/metrics"  # another origin: the host differs
        with KeyedLlamaServer(KEY, metrics_redirect=target) as server:
            block, level, _ = _run(project, monkeypatch, server)
            assert scrape(server.url.removesuffix("/v1"), 2.0, headers={"x": "y"}) is None
    assert block is None and level is None  # no page, and the redirect was not followed
    assert other.connections == 0 and KEY.encode() not in bytes(other.received)


@pytest.mark.embedded
def test_a_real_llama_server_with_an_api_key_shows_its_metrics_and_props(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """llama-server started with ``--api-key`` and used as a remote endpoint: its /metrics and
    /props refuse a request without the key (401); the run reads both with it."""
    model = _preset_model()
    gguf, _ = verified_gguf(model)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = server_command(server_binary(), gguf, model, EngineSettings(slots=2), port)
    process = subprocess.Popen([*command, "--api-key", KEY], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)  # fmt: skip
    root = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{root}/health", timeout=2).status_code == 200:
                    break
            time.sleep(0.5)
        assert httpx.get(f"{root}/metrics", timeout=5).status_code == 401
        monkeypatch.setenv("ATLAS_TEST_KEY", KEY)
        write_dataset(project, "eval-t-v1", "eval", [eval_row(i) for i in range(3)])
        write_params(project, f"{root}/v1", model={"name": model.name},
                     decoding={"max_tokens": 8}, run={"concurrency": 2, "timeout_s": 600},
                     workloads={"w": {"dataset": "eval-t-v1"}})  # fmt: skip
        assert main(["infer", "w"]) == 0
    finally:
        process.terminate()
        process.wait(30)
    serving = json.loads((project / "metrics" / "w.serving.json").read_text())["main"]
    manifest = json.loads((project / "results" / "w" / "manifest.json").read_text())
    lines = (project / "results" / "w" / "responses.jsonl").read_text().splitlines()
    usages = [json.loads(line)["usage"] for line in lines]
    server = serving["server"]
    assert server is not None and server["metrics_dialect"] == "llamacpp"
    assert server["prompt_tokens_all"] == sum(u["prompt_tokens"] for u in usages)
    assert server["generation_tokens"] == sum(u["completion_tokens"] for u in usages)
    cached = sum(u["prompt_tokens_details"]["cached_tokens"] for u in usages)
    assert server["prefix_cache_hits"] == cached == serving["engine"]["usage_cached_tokens_total"]
    [template] = manifest["chat_templates"].values()
    assert "<|im_start|>" in template


def _preset_model() -> ModelParams:
    params = yaml.safe_load((REPO / "params.yaml").read_text(encoding="utf-8"))
    return ModelParams.model_validate(resolve_model(params))
