"""Row schemas for the three dataset kinds (spec 001, "Row schemas").

Unknown fields are errors everywhere (``extra="forbid"``): a typo in a generator must fail the
check stage rather than silently vanish from a benchmark.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from stages.datasets.tokens import approx_tokens, bucket_for

Bucket = Literal["xs", "s", "m", "l", "xl", "xxl"]
Difficulty = Literal["easy", "medium", "hard"]
ScorerName = Literal[
    "exact",
    "contains",
    "numeric",
    "mc",
    "instruction",
    "tool_call",
    "code_exec",
    "splice",
    "drop",
    "chrf",
    "review",
]
CodeLang = Literal["python", "typescript", "go", "rust", "sql"]
CodeTask = Literal["write", "fix", "explain", "refactor"]

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class Message(_Strict):
    """One chat turn as the OpenAI chat-completions API takes it."""

    role: Literal["system", "user", "assistant"]
    """Who speaks: ``system``, ``user`` or ``assistant``."""
    content: str
    """The text of the turn."""


class PromptRow(_Strict):
    """A serving workload prompt: sent for latency and throughput, never scored for accuracy."""

    id: str = Field(pattern=_ID.pattern)
    """Unique id within the dataset, e.g. ``mix-0001``."""
    topic: str
    """One of the dataset's topics (science, history, code, ...)."""
    bucket: Bucket
    """Length bucket of ``approx_tokens`` (see ``stages.datasets.tokens.BUCKETS``)."""
    lang: str
    """Natural language of the prompt (BCP-47 primary tag such as ``en``, ``fr``)."""
    approx_tokens: int = Field(ge=0)
    """``ceil(chars/4)`` over the messages, including ``shared_prefix`` when set."""
    messages: list[Message] = Field(min_length=1)
    """The chat turns to send, in order."""
    shared_prefix: str | None = None
    """When set, sent as a leading system message before ``messages`` (a contract, spec 001)."""
    code_lang: CodeLang | None = None
    """Programming language of a ``prompts-code`` row."""
    task: CodeTask | None = None
    """Kind of coding task of a ``prompts-code`` row."""
    turns: list[str] | None = Field(default=None, min_length=1)
    """Follow-up user turns of a conversation (multi-turn sessions, issue 14): turn k+1 is sent
    after the model's own answer to turn k. ``approx_tokens`` and ``bucket`` describe the first
    turn (``messages``) only; later prompts grow with the answers."""

    @model_validator(mode="after")
    def _tokens_and_bucket(self) -> PromptRow:
        expected = approx_tokens((m.content for m in self.messages), self.shared_prefix)
        if self.approx_tokens != expected:
            raise ValueError(f"approx_tokens is {self.approx_tokens}, recomputed {expected}")
        if self.bucket != bucket_for(expected):
            raise ValueError(
                f"bucket is {self.bucket!r}, {expected} tokens is {bucket_for(expected)!r}"
            )
        if (self.code_lang is None) != (self.task is None):
            raise ValueError("code_lang and task go together")
        return self


class Mutant(_Strict):
    """A plausible wrong solution of a ``code_exec`` row: the hidden tests must reject it."""

    name: str = Field(min_length=1)
    """What the mutant gets wrong, e.g. ``sums the whole matrix, not its border``."""
    code: str = Field(min_length=1)
    """The wrong solution's source, in the form a model would reply with."""


class Probes(_Strict):
    """Answers the generator knows beside the gold, so the check can prove the row's scorer and
    tests per row (issue 19): near misses it must reject, spellings it must accept, the rule
    applied to every option, and for code rows a reference solution and its mutants."""

    near_misses: list[str] = Field(default_factory=list)
    """Wrong replies of the gold's form (other numbers of the family and their spellings,
    off-by-one values, the other options' texts, a plan wrong by the rule); each must score
    wrong under both the strict and the flexible reading."""
    alternatives: list[str] = Field(default_factory=list)
    """Other correct replies the row accepts (label lists such as ``(1), (2), (5)``, arrow or
    dash separators); each must score correct under the strict reading."""
    option_ok: list[bool] | None = None
    """For rows with options: the generator's own rule applied to each option, in order,
    without looking at the gold; exactly one is true, and it is the gold."""
    reference: str | None = None
    """``code_exec`` rows: a reference solution that passes every hidden test."""
    mutants: list[Mutant] = Field(default_factory=list)
    """``code_exec`` rows: plausible wrong solutions; each must fail at least one hidden test."""


class EvalRow(_Strict):
    """A scored item: a prompt (or messages), its gold answer and the scorer that judges it."""

    id: str = Field(pattern=_ID.pattern)
    """Unique id within the dataset, e.g. ``math-0001``."""
    category: str
    """Item family used for breakdowns (``arithmetic``, ``fractions``, ...)."""
    difficulty: Difficulty
    """``easy``, ``medium`` or ``hard``."""
    prompt: str | None = None
    """The user message; exactly one of ``prompt`` and ``messages`` is set."""
    messages: list[Message] | None = None
    """Full chat turns, used when a system turn matters."""
    answer: Any
    """Gold answer: string, number or object, in the shape the row's scorer expects."""
    scorer: ScorerName
    """The scorer that judges this row (always the row's own, never a workload default)."""
    choices: list[str] | None = None
    """Options of an ``mc`` row, labelled A, B, C, ... in order; ``answer`` is the letter."""
    tests: str | None = None
    """Assert statements run against the model's code (``code_exec`` rows only)."""
    image: str | None = None
    """Image path relative to the dataset directory (vision rows only)."""
    meta: dict[str, Any] = Field(default_factory=dict)
    """Per-scorer extras (tools, context identifiers, example_pass, lang, subject, ...)."""
    probes: Probes | None = None
    """Near misses, alternative spellings, per-option verdicts and code mutants the check runs
    against the row's own scorer (issue 19); absent in datasets published before them."""

    @model_validator(mode="after")
    def _shape(self) -> EvalRow:
        if (self.prompt is None) == (self.messages is None):
            raise ValueError("exactly one of prompt and messages must be set")
        if self.scorer == "mc":
            if not self.choices or len(self.choices) < 2:
                raise ValueError("an mc row needs at least two choices")
            labels = [chr(ord("A") + i) for i in range(len(self.choices))]
            if self.answer not in labels:
                raise ValueError(f"mc answer {self.answer!r} is not one of {labels}")
        elif self.choices is not None:
            raise ValueError("choices are only for mc rows")
        if (self.scorer == "code_exec") != (self.tests is not None):
            raise ValueError("tests go with the code_exec scorer and only with it")
        if self.probes is not None:
            self._check_probes(self.probes)
        if self.image is not None and (self.image.startswith("/") or ".." in self.image.split("/")):
            raise ValueError(f"image path {self.image!r} must stay inside the dataset directory")
        return self

    def _check_probes(self, probes: Probes) -> None:
        if probes.option_ok is not None:
            if self.choices is None or len(probes.option_ok) != len(self.choices):
                raise ValueError("probes.option_ok needs one verdict per choice")
            right = [chr(ord("A") + i) for i, ok in enumerate(probes.option_ok) if ok]
            if right != [self.answer]:
                raise ValueError(
                    f"probes.option_ok marks {right} right, the gold is {self.answer!r}"
                )
        if (probes.reference is not None or probes.mutants) and self.scorer != "code_exec":
            raise ValueError("probes.reference and probes.mutants are for code_exec rows only")


class Needle(_Strict):
    """One fact hidden in a haystack document."""

    depth: float = Field(ge=0.0, le=1.0)
    """Relative position in the filler, 0 (start) to 1 (end)."""
    text: str
    """The sentence inserted as the needle."""
    answer: str
    """What the needle lets a reader answer."""
    line_number: int = Field(ge=1)
    """1-based line on which the needle lands in the built document."""


class HaystackRow(_Strict):
    """A recipe from which ``build.py`` rebuilds one long document exactly (spec 001 algorithm)."""

    id: str = Field(pattern=_ID.pattern)
    """Unique id, e.g. ``hay-8k-d50``."""
    kind: Literal["single", "multi"]
    """One needle or several."""
    target_tokens: int = Field(gt=0)
    """Size the document is built to, in approx tokens."""
    seed: int
    """Seed of the builder's ``random.Random``."""
    algorithm: Literal["haystack-v1"]
    """Name of the building algorithm."""
    needles: list[Needle] = Field(min_length=1)
    """The facts inserted, with their depth and resulting line number."""
    question: str
    """What the reader is asked about the needles."""
    answer: str
    """The gold answer to ``question``."""
    chars: int = Field(ge=0)
    """Length of the built document in characters."""
    lines: int = Field(ge=1)
    """Number of lines in the built document."""
    approx_tokens: int = Field(ge=0)
    """``ceil(chars/4)``."""
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """SHA-256 of the built document (UTF-8, no trailing newline)."""
    static_file: str | None
    """``static/<id>.txt`` for documents of at most 32k tokens, else null."""

    @model_validator(mode="after")
    def _kind(self) -> HaystackRow:
        if (self.kind == "single") != (len(self.needles) == 1):
            raise ValueError(f"kind {self.kind!r} does not fit {len(self.needles)} needle(s)")
        if self.approx_tokens != -(-self.chars // 4):
            raise ValueError(f"approx_tokens {self.approx_tokens} is not ceil(chars/4)")
        return self


ROW_MODELS: dict[str, type[_Strict]] = {
    "prompts": PromptRow,
    "eval": EvalRow,
    "haystack": HaystackRow,
}
