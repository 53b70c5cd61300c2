"""The every_eval_ever instance-level record (``instance_level_eval.schema.json``): one line of a
``<uuid>_samples.jsonl`` file, one scored answer to one item for one aggregate result.

See :mod:`stages.export.eee_models` for where the fields come from.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from stages.export.eee_parts import Details, Strict


class InstanceInput(Strict):
    """What the model was asked."""

    raw: str
    """The input as the evaluation defines it."""
    formatted: str | None = None
    """The input as the model saw it (chat template and all)."""
    reference: list[str]
    """The reference answers."""
    choices: list[str] | None = None
    """The options of a multiple-choice question."""


class InstanceOutput(Strict):
    """What the model answered (single-turn records only)."""

    raw: list[str]
    """The model's complete answers."""
    reasoning_trace: list[str] | None = None
    """Its reasoning, when it shows any."""


class ToolCall(Strict):
    """One tool call of a turn."""

    id: str
    """The call's id."""
    name: str
    """The tool called."""
    arguments: Details | None = None
    """Its arguments, every value a string."""


class Message(Strict):
    """One turn of a multi-turn or agentic transcript."""

    turn_idx: int = Field(ge=0)
    """The turn's position, from 0."""
    role: str
    """Who speaks (system, user, assistant, tool)."""
    content: str | None = None
    """What was said."""
    reasoning_trace: str | None = None
    """The turn's reasoning."""
    tool_calls: list[ToolCall] | None = None
    """The tools it called."""
    tool_call_id: list[str] | None = None
    """The calls whose results it carries."""


class AnswerAttribution(Strict):
    """How the scored answer was read out of the output."""

    turn_idx: int = Field(ge=0)
    """The turn it comes from (0 for single-turn)."""
    source: str
    """Where it was read (``output.raw``)."""
    extracted_value: str
    """The value read."""
    extraction_method: str
    """How it was read (the scorer)."""
    is_terminal: bool
    """Whether it is the final answer."""


class InstanceEvaluation(Strict):
    """The item's score."""

    score: float
    """The item's score on the result's scale."""
    is_correct: bool
    """Whether the answer is right (meaningful for binary metrics)."""
    num_turns: int | None = Field(default=None, ge=1)
    """How many turns the interaction had."""
    tool_calls_count: int | None = Field(default=None, ge=0)
    """How many tool calls it made."""


class TokenUsage(Strict):
    """Tokens the answer used (all three totals, or no object)."""

    input_tokens: int = Field(ge=0)
    """Input tokens."""
    output_tokens: int = Field(ge=0)
    """Output tokens."""
    total_tokens: int = Field(ge=0)
    """Both."""
    input_tokens_cache_write: int | None = Field(default=None, ge=0)
    """Input tokens written to a cache."""
    input_tokens_cache_read: int | None = Field(default=None, ge=0)
    """Input tokens read from a cache."""
    reasoning_tokens: int | None = Field(default=None, ge=0)
    """Tokens spent reasoning."""


class Performance(Strict):
    """How long the answer took."""

    latency_ms: float | None = Field(default=None, ge=0)
    """End-to-end latency."""
    time_to_first_token_ms: float | None = Field(default=None, ge=0)
    """Time to the first token."""
    generation_time_ms: float | None = Field(default=None, ge=0)
    """Time generating."""
    additional_details: Details | None = None
    """Further timings, every value a string."""


class InstanceRecord(Strict):
    """One scored answer: a line of the instance-level file."""

    schema_version: str
    """The schema version (the aggregate's)."""
    evaluation_id: str
    """The aggregate record's ``evaluation_id``."""
    model_id: str
    """The model, as the aggregate's ``model_info.id``."""
    evaluation_name: str
    """The evaluation's name."""
    evaluation_result_id: str | None = None
    """The aggregate result this record counts towards."""
    sample_id: str
    """The item's id in its dataset."""
    sample_hash: str | None = None
    """A hash identifying the item across runs."""
    interaction_type: Literal["single_turn", "multi_turn", "agentic"]
    """Single-turn question and answer, a conversation, or an agent."""
    input: InstanceInput
    """What was asked."""
    output: InstanceOutput | None = None
    """What was answered (single-turn)."""
    messages: list[Message] | None = None
    """The transcript (multi-turn, agentic)."""
    answer_attribution: list[AnswerAttribution]
    """How the scored answer was read."""
    evaluation: InstanceEvaluation
    """The score."""
    token_usage: TokenUsage | None = None
    """Tokens used."""
    performance: Performance | None = None
    """Timings."""
    error: str | None = None
    """What went wrong (timeout, API error), if anything."""
    metadata: Details | None = None
    """Further facts about the item, every value a string."""

    @model_validator(mode="after")
    def _one_shape(self) -> InstanceRecord:
        # The schema's allOf: a single-turn record has an output and no transcript, others the
        # reverse.
        if self.interaction_type == "single_turn":
            if self.output is None or self.messages is not None:
                raise ValueError("a single_turn record needs output and no messages")
        elif self.messages is None or self.output is not None:
            raise ValueError(f"a {self.interaction_type} record needs messages and no output")
        return self
