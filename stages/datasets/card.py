"""The dataset card, ``datasets/<id>/dataset.json``: provenance, licence and file digests."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: Ids a contributor may create (``atlas dataset new``): ``<kind>-<name>-v<N>``.
NEW_ID_PATTERN = r"^(eval|prompts|haystack)-[a-z0-9-]+-v[0-9]+$"
NEW_ID_RE = re.compile(NEW_ID_PATTERN)
#: Ids a card may carry: the above, plus the spec's own unnamed ``haystack-v<N>``.
ID_PATTERN = r"^((eval|prompts|haystack)-[a-z0-9-]+-v[0-9]+|haystack-v[0-9]+)$"
ID_RE = re.compile(ID_PATTERN)


class GeneratorRef(BaseModel):
    """Where a generated dataset comes from."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    path: str
    """Generator script relative to the repository root, e.g. ``_gen/eval-math-v1.py``."""
    seed: int
    """The generator's fixed seed."""
    fresh_seed: int | None = None
    """Set only on a fresh instance (``atlas dataset fresh``): the seed it was drawn under."""


class ExternalSource(BaseModel):
    """Provenance of an imported (not generated) dataset."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    file: str
    """Name of the file the rows were imported from."""
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    """SHA-256 of that file's bytes."""
    origin: str
    """Where the file says it comes from (project, URL or citation)."""
    revision: str
    """The origin's revision (commit, release or date) as stated by the importer."""
    licence: str
    """Licence of the source material."""
    sample_seed: int | None = None
    """Seed of the stratified sample drawn from the file, if one was drawn."""


class DatasetCard(BaseModel):
    """Everything needed to know what a dataset is and to verify its bytes."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    id: str = Field(pattern=ID_PATTERN)
    """Dataset id: ``<kind>-<name>-v<N>``; a change to a published id needs a new version."""
    kind: Literal["prompts", "eval", "haystack"]
    """Row kind: serving prompts, scored eval items, or haystack recipes."""
    description: str
    """One or two sentences on what the dataset measures."""
    licence: str
    """Licence of the dataset's bytes (MIT for everything generated here)."""
    generator: GeneratorRef | None
    """The generator that writes it; null for imported datasets."""
    external: bool = False
    """True for imported datasets, which are pinned but never regenerated."""
    source: ExternalSource | None = None
    """Provenance of an imported dataset."""
    token_heuristic: str
    """How ``approx_tokens`` is computed (the same for every dataset)."""
    default_scorer: str | None
    """Scorer a workload assumes when a row names none; rows always carry their own."""
    rows: int = Field(ge=0)
    """Number of rows in ``rows.jsonl``."""
    files: dict[str, str]
    """SHA-256 of every other file in the dataset directory, keyed by relative path."""
    created: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    """Fixed creation date written by the generator (never the time of the run)."""

    @model_validator(mode="after")
    def _provenance(self) -> DatasetCard:
        if self.external != (self.generator is None):
            raise ValueError("a dataset is either generated (generator set) or external")
        if self.external and self.source is None:
            raise ValueError("an external dataset needs its source")
        if not self.id.startswith(self.kind + "-"):
            raise ValueError(f"id {self.id!r} does not start with its kind {self.kind!r}")
        return self
