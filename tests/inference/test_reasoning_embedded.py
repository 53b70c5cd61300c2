"""Issue 33 against the real embedded llama-server: its ``POST /tokenize`` accepts the body
:mod:`stages.inference.tokenize` sends and counts a text as the engine counted it when it
generated it; SmolLM2 does not think, so its answers have no reasoning channel (the server runs
with its default ``--reasoning-format auto``, which would put a thinking model's thoughts in
``reasoning_content``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stages.engine.embedded import embedded_server
from stages.inference.endpoint import Endpoint
from stages.inference.tokenize import count_reasoning
from stages.network.policy import control_request
from stages.params import model_params
from stages.protocol.sse import parse_completion

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.embedded
def test_the_engine_tokenizer_counts_a_text_as_the_engine_generated_it() -> None:
    model = model_params(REPO / "params.yaml")
    with embedded_server(model) as server:
        body = {"model": model.name, "max_tokens": 24, "temperature": 0,
                "messages": [{"role": "user", "content": "Tell me about the moon."}]}  # fmt: skip
        headers = {"Content-Type": "application/json"}
        chat = f"{server.url}/chat/completions"
        sent = control_request("POST", chat, headers, 600, json.dumps(body).encode(), direct=True)
        answer = parse_completion(sent.content)
        assert answer.reasoning_channel is None and answer.output.strip()
        generated = answer.usage["completion_tokens"]  # type: ignore[index]
        endpoint = Endpoint([server.url], {}, ["embedded"], [None], starter=lambda: server.url)
        fields = {"error": None, "reasoning_channel": "reasoning", "reasoning": answer.output}
        tags = {"error": None, "reasoning_channel": "think",
                "output": f"<think>{answer.output}</think>Answer: 4"}  # fmt: skip
        assert count_reasoning(endpoint, [fields, tags], model.name) == [fields, tags]
    assert fields["reasoning_tokens"] == tags["reasoning_tokens"] == generated
