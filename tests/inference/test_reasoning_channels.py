"""Issue 33: reasoning read in its three forms, two clocks per request, and the figures of the
reasoning and answer channels on hand-made records (every expected value worked by hand)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from stages.inference.definitions import timing
from stages.protocol.channels import ANSWER, REASONING, ThinkTags
from stages.protocol.sse import StreamReader, parse_completion
from stages.serving.channel_figures import channel_figures
from stages.serving.metrics import serving_metrics


def _event(delta: dict[str, Any], finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return b"data: " + json.dumps({"choices": [choice]}).encode() + b"\n\n"


def _read(deltas: list[dict[str, Any]]) -> Any:
    """Each delta in a read of its own, delta i arriving at i seconds (the role at 0)."""
    reader = StreamReader()
    for i, delta in enumerate([{"role": "assistant"}, *deltas]):
        reader.feed(_event(delta), float(i))
    reader.feed(_event({}, "stop") + b"data: [DONE]\n\n", float(len(deltas) + 1))
    return reader.finish()


def test_each_reasoning_form_gives_both_clocks_and_keeps_the_answer_apart() -> None:
    for name in ("reasoning_content", "reasoning"):
        answer = _read(
            [{name: "Two "}, {name: "and two."}, {"content": "Answer"}, {"content": ": 4"}]
        )
        assert (answer.first_token_at, answer.first_answer_at) == (1.0, 3.0)
        assert answer.token_times == [1.0, 2.0, 3.0, 4.0] and answer.reasoning_times == [1.0, 2.0]
        assert (answer.output, answer.reasoning) == ("Answer: 4", "Two and two.")
        assert answer.reasoning_channel == name and answer.thought_text == "Two and two."
    # tags in the content, split over deltas as a tokenizer may split them
    pieces = ["\n", "<thi", "nk>Two", " and two.</th", "ink>", "\n\nAnswer: 4"]
    answer = _read([{"content": p} for p in pieces])
    assert (answer.first_token_at, answer.first_answer_at) == (1.0, 6.0)
    assert answer.reasoning_times == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert answer.output == "".join(pieces)  # left as sent: scoring drops the block
    assert (answer.reasoning, answer.reasoning_channel) == ("", "think")
    assert answer.thought_text == "Two and two."


def test_a_model_that_does_not_think_has_one_clock() -> None:
    answer = _read([{"content": "<"}, {"content": "b>Answer: 4</b>"}])
    assert answer.first_token_at == answer.first_answer_at == 1.0
    assert answer.reasoning_times == [] and answer.reasoning_channel is None
    held = _read([{"content": "\n"}, {"content": " "}])  # whitespace only: answer text
    assert held.first_answer_at == 1.0 and held.token_times == [1.0, 2.0]


def test_thinking_that_never_reaches_an_answer_has_no_answer_clock() -> None:
    answer = _read([{"reasoning_content": "Hmm"}, {"reasoning_content": " so"}])
    assert (answer.first_token_at, answer.first_answer_at) == (1.0, None)
    tags = _read([{"content": "<think>"}, {"content": "Hmm"}])
    assert (tags.first_token_at, tags.first_answer_at, tags.reasoning_channel) == (
        1.0,
        None,
        "think",
    )


def test_plain_json_answers_read_every_form() -> None:
    def body(message: dict[str, Any]) -> bytes:
        return json.dumps(
            {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
        ).encode()

    for name in ("reasoning_content", "reasoning"):
        answer = parse_completion(body({"content": "Answer: 4", name: "Two and two."}))
        assert (answer.output, answer.reasoning, answer.reasoning_channel) == (
            "Answer: 4", "Two and two.", name)  # fmt: skip
    answer = parse_completion(body({"content": "<think>Two and two.</think>Answer: 4"}))
    assert (answer.reasoning_channel, answer.thought_text) == ("think", "Two and two.")
    assert parse_completion(body({"content": "Answer: 4"})).reasoning_channel is None


_TEXT = st.text(st.sampled_from("ab <>/thinkx\n"), max_size=12)


@given(
    lead=st.sampled_from(["", " ", "\n\n"]),
    reasoning=_TEXT.filter(lambda t: "</think>" not in t),
    answer=_TEXT,
    cuts=st.lists(st.integers(1, 60), max_size=8),
)
def test_think_tags_split_anywhere_give_the_reference_channels(
    lead: str, reasoning: str, answer: str, cuts: list[int]
) -> None:
    """Reference: a delta is an answer token when it holds a character after the closing tag
    of the leading block (every delta, without a leading block)."""
    for closed in (True, False):
        text = f"{lead}<think>{reasoning}" + (f"</think>{answer}" if closed else "")
        bounds = sorted({c for c in cuts if c < len(text)} | {len(text)})
        pieces = [text[a:b] for a, b in zip([0, *bounds], bounds, strict=False)]
        seen: list[tuple[str, float]] = []
        tags = ThinkTags(lambda channel, now, seen=seen: seen.append((channel, now)))
        for i, piece in enumerate(pieces):
            tags.feed(piece, float(i))
        tags.close()
        close_end = text.index("</think>") + len("</think>") if closed else len(text) + 1
        expected = [ANSWER if end > close_end else REASONING for end in bounds]
        assert seen == [(channel, float(i)) for i, channel in enumerate(expected)]
        assert tags.thought


def _ok(**fields: Any) -> dict[str, Any]:
    return {"id": "x", "usage": None, "error": None, **fields}


# R: reasoning_content, usage counts 5 reasoning of 8; T: think tags, no usage; N: no thinking;
# E: ran out while thinking; J: not streamed, 23 characters of reasoning (6 approximate tokens).
R = _ok(ttft_s=0.1, ttfa_s=0.5, latency_s=1.0, reasoning_channel="reasoning_content",
        token_s=[0.1, 0.2, 0.4, 0.5, 0.6, 0.9], reasoning_token_s=[0.1, 0.2, 0.4],
        usage={"completion_tokens": 8,
               "completion_tokens_details": {"reasoning_tokens": 5}})  # fmt: skip
T = _ok(ttft_s=0.2, ttfa_s=0.5, latency_s=0.6, reasoning_channel="think",
        output="<think>a b</think>X", token_s=[0.2, 0.3, 0.35, 0.5],
        reasoning_token_s=[0.2, 0.3, 0.35])  # fmt: skip
N = _ok(ttft_s=0.3, ttfa_s=0.3, latency_s=0.5, token_s=[0.3, 0.4])
E = _ok(ttft_s=0.1, ttfa_s=None, latency_s=0.4, reasoning_channel="reasoning",
        token_s=[0.1, 0.3], reasoning_token_s=[0.1, 0.3])  # fmt: skip
J = _ok(ttft_s=None, latency_s=0.7, reasoning_channel="reasoning",
        reasoning="one two three four five", usage={"completion_tokens": 10})  # fmt: skip


def _dist(n: int, mean: Any, p50: Any, p90: Any, p95: Any, p99: Any) -> dict[str, Any]:
    return {"n": n, "mean": mean, "p50": p50, "p90": p90, "p95": p95, "p99": p99}


def test_per_request_channels() -> None:
    r, t, n, e, j = (timing(x) for x in (R, T, N, E, J))
    assert r.channels is not None and t.channels is not None and e.channels is not None
    assert (r.ttft_s, r.ttfa_s, r.channels.reasoning_tokens, r.channels.answer_tokens) == (
        0.1,
        0.5,
        5,
        3,
    )
    assert r.channels.reasoning_from == "usage"
    assert round(r.channels.reasoning_tpot_s or 0, 9) == 0.075  # (0.4 - 0.1) / (5 - 1)
    assert round(r.channels.answer_tpot_s or 0, 9) == 0.25  # (1.0 - 0.5) / (3 - 1)
    assert [round(g, 9) for g in r.channels.answer_gaps_s] == [0.1, 0.3]
    assert (t.channels.reasoning_tokens, t.channels.reasoning_from) == (3, "approximate")
    assert (t.channels.answer_tokens, t.channels.answer_tpot_s) == (1, None)
    assert n.channels is None and n.ttfa_s == n.ttft_s == 0.3  # did not think: one clock
    assert (e.ttfa_s, e.channels.answer_tokens, e.channels.answer_tpot_s) == (None, 0, None)
    assert j.channels is not None and (j.channels.reasoning_tokens, j.channels.answer_tokens) == (
        6,
        4,
    )


def test_channel_figures_of_a_pass() -> None:
    failed = {"id": "f", "usage": None, "error": {"kind": "timeout", "message": "x"}}
    figures = channel_figures([timing(x) for x in (R, T, N, E, J, failed)])
    assert figures == {
        "ttfa_s": _dist(3, 0.433333, 0.5, 0.5, 0.5, 0.5),  # R, T, N (E has none, J not streamed)
        "channels": {
            "requests_thinking": 4,
            "reasoning": {  # gaps 0.1, 0.2 (R), 0.1, 0.05 (T), 0.2 (E); TPOT 0.075, 0.075, 0.2
                "itl_s": _dist(5, 0.13, 0.1, 0.2, 0.2, 0.2),
                "tpot_s": _dist(3, 0.116667, 0.075, 0.175, 0.1875, 0.1975),
                "tokens": {"total": 16, "from_usage": 1, "from_tokenizer": 0, "approximate": 3},
            },
            "answer": {  # gaps 0.1, 0.3 (R), 0.1 (N); TPOT 0.25 (R), 0.2 (N); 3 + 1 + 2 + 0 + 4
                "itl_s": _dist(3, 0.166667, 0.1, 0.26, 0.28, 0.296),
                "tpot_s": _dist(2, 0.225, 0.225, 0.245, 0.2475, 0.2495),
                "tokens": {"total": 10},
            },
        },
    }
    scheduled = channel_figures([timing({**N, "scheduled_s": 0.0, "sent_s": 0.2}), timing(R)], True)
    assert scheduled["ttfa_from_scheduled_s"]["p50"] == 0.5  # 0.3 + 0.2 lag, and 0.5


def test_records_of_models_that_do_not_think_keep_their_figures() -> None:
    """Old records (no ``ttfa_s``) and new ones of a model that does not think: no channel
    figures at all, and the pass's block is what it was."""
    old = _ok(ttft_s=0.3, latency_s=0.5, token_s=[0.3, 0.4])
    assert channel_figures([timing(old), timing(N)]) == {}
    assert timing(old).ttfa_s == 0.3
    before = serving_metrics([old], [], 0.0, 1)
    assert serving_metrics([N], [], 0.0, 1) == before and "ttfa_s" not in before


def test_load_levels_time_the_answer_from_the_scheduled_send_too() -> None:
    from stages.params import LoadParams
    from stages.serving.level_metrics import level_metrics

    level = {"phase": "measure", "segment": 0, "scheduled_s": 0.0, "sent_s": 0.2, "done_s": 1.2}
    block = level_metrics([{**R, **level}], LoadParams(mode="rate", rates=[1]), 1.0, None)
    assert block["ttfa_s"]["p50"] == 0.5 and block["ttfa_from_scheduled_s"]["p50"] == 0.7
    assert block["ttft_from_scheduled_s"]["p50"] == 0.3
    assert block["channels"]["reasoning"]["tokens"]["total"] == 5


def test_the_reasoning_text_is_scrubbed_of_the_key() -> None:
    key = "sk-secret-think-0123456789"
    reader = StreamReader((key,))
    for i, piece in enumerate(("I saw sk-secret-", "think-0123456789 in", " the prompt")):
        reader.feed(_event({"reasoning_content": piece}), float(i))
    reader.feed(_event({"content": "Answer: 4"}, "stop"), 3.0)
    answer = reader.finish()
    assert key not in answer.reasoning and answer.reasoning.startswith("I saw ")
    assert answer.reasoning.endswith(" in the prompt")


def test_whitespace_before_a_reasoning_field_or_a_call_is_timed_in_order() -> None:
    answer = _read([{"content": "\n"}, {"reasoning_content": "Hmm"}, {"content": "Answer: 4"}])
    assert answer.token_times == [1.0, 2.0, 3.0] and answer.reasoning_times == [1.0, 2.0]
    assert (answer.first_token_at, answer.first_answer_at) == (1.0, 3.0)
    call = {"index": 0, "id": "c", "function": {"name": "f", "arguments": "{}"}}
    answer = _read([{"content": " "}, {"tool_calls": [call]}])
    assert answer.token_times == [1.0, 2.0] and answer.first_answer_at == 1.0
    assert answer.tool_calls and answer.tool_calls[0]["function"]["name"] == "f"
