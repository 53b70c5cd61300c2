"""Which engine answers, and the request fields that make "greedy" mean the same on each.

A field a request leaves out takes the server's default, and the defaults differ: llama.cpp's
server keeps the 40 likeliest tokens and drops those under 5 % of the likeliest, vLLM takes
``repetition_penalty`` and ``top_k`` from the model's ``generation_config.json``, and
llama-cpp-python's server applies a repeat penalty of 1.1 even at temperature 0. So every request
carries the neutral value of each sampling knob its engine is known to accept
(:data:`NEUTRAL`): no penalty, no truncation beyond ``top_p``, no mirostat, DRY or XTC.

The engine is named from what the endpoint shows (:func:`kind_of`): the ``owned_by`` of its
``/models`` list (``llamacpp``, ``vllm``, ``sglang``, ``me`` for llama-cpp-python, ``openai`` or
``system`` for OpenAI), else llama.cpp's ``/props`` document, else TGI's ``/info`` router. An
endpoint that shows none of them is unidentified and gets no extra field (an unknown field may
be refused).

The embedded engine is the exception (:func:`fields_for`): it is this project's own pinned
``llama-server``, whose defaults were measured (:data:`EMBEDDED_DEFAULTS`, from ``GET /props``;
``tests/inference/test_server_defaults.py`` checks them on the real server). Only the knobs whose
default is not neutral are sent, and at temperature 0 not even those that merely cut the tail of
the distribution (:data:`KEEP_LIKELIEST`): the likeliest token always survives them, so a greedy
pick cannot change, and greedy request bodies stay byte for byte what they were (docs/engine.md).
"""

from __future__ import annotations

from typing import Any

EMBEDDED = "llama.cpp (embedded)"
"""The kind of the embedded server (a llama.cpp server whose defaults are known)."""

NEUTRAL: dict[str, dict[str, Any]] = {
    "llama.cpp": {
        "repeat_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
        "top_k": 0, "min_p": 0.0, "typical_p": 1.0, "top_n_sigma": -1.0,
        "dry_multiplier": 0.0, "xtc_probability": 0.0, "mirostat": 0, "dynatemp_range": 0.0,
    },
    "llama-cpp-python": {
        "repeat_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
        "top_k": 0, "min_p": 0.0, "typical_p": 1.0, "tfs_z": 1.0, "mirostat_mode": 0,
    },
    # top_k -1 (all tokens): the value every vLLM and SGLang version accepts (old vLLM refused 0)
    "vllm": {
        "repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
        "top_k": -1, "min_p": 0.0,
    },
    "sglang": {
        "repetition_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0,
        "top_k": -1, "min_p": 0.0,
    },
    "tgi": {"presence_penalty": 0.0, "frequency_penalty": 0.0},
    "openai": {},
}  # fmt: skip
"""Per engine kind, each sampling knob it accepts besides ``temperature``/``top_p`` and the
value that turns it off."""

EMBEDDED_DEFAULTS: dict[str, Any] = {
    "repeat_penalty": 1.0, "presence_penalty": 0.0, "frequency_penalty": 0.0, "top_k": 40,
    "min_p": 0.05, "typical_p": 1.0, "top_n_sigma": -1.0, "dry_multiplier": 0.0,
    "xtc_probability": 0.0, "mirostat": 0, "dynatemp_range": 0.0,
}  # fmt: skip
"""``default_generation_settings.params`` of the embedded ``llama-server`` (the pinned build),
for the knobs of ``NEUTRAL["llama.cpp"]``, as its ``GET /props`` reports them."""

KEEP_LIKELIEST = frozenset({"top_k", "min_p", "top_n_sigma"})
"""Knobs that only drop unlikely tokens and always keep the likeliest one (``typical_p`` and
XTC may drop it, so they are not here): at temperature 0 they cannot change the pick."""

BUDGET_FIELD = {
    "llama.cpp": "thinking_budget_tokens",
    EMBEDDED: "thinking_budget_tokens",
    "sglang": "thinking_budget",
}
"""The request field each engine reads the thinking budget from; vLLM's and the default name
is ``thinking_token_budget``."""

OWNED_BY = {
    "llamacpp": "llama.cpp",
    "vllm": "vllm",
    "sglang": "sglang",
    "me": "llama-cpp-python",
    "openai": "openai",
    "system": "openai",
    "openai-internal": "openai",
}
"""``owned_by`` of a ``/models`` entry -> engine kind."""


def kind_of(models: Any, props: Any, info: Any = None) -> str | None:
    """The engine kind from the ``/models`` document, llama.cpp's ``/props`` and TGI's ``/info``
    (each None where the endpoint has none); None when none of them names one."""
    entries = models.get("data") if isinstance(models, dict) else None
    for entry in entries if isinstance(entries, list) else ():
        owner = entry.get("owned_by") if isinstance(entry, dict) else None
        if isinstance(owner, str) and owner.lower() in OWNED_BY:
            return OWNED_BY[owner.lower()]
    if isinstance(props, dict) and isinstance(props.get("default_generation_settings"), dict):
        return "llama.cpp"
    if isinstance(info, dict) and info.get("router") == "text-generation-router":
        return "tgi"
    return None


def fields_for(kind: str | None, temperature: float) -> dict[str, Any]:
    """The neutral sampling fields a request to an engine of ``kind`` carries."""
    if kind == EMBEDDED:
        neutral = NEUTRAL["llama.cpp"]
        return {
            name: value
            for name, value in neutral.items()
            if EMBEDDED_DEFAULTS.get(name) != value
            and not (temperature == 0 and name in KEEP_LIKELIEST)
        }
    return dict(NEUTRAL.get(kind or "", {}))


def budget_field(kind: str | None) -> str:
    """The field name of the thinking budget for an engine of ``kind``."""
    return BUDGET_FIELD.get(kind or "", "thinking_token_budget")
