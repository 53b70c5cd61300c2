"""One exception type for every user-facing failure.

The CLI turns an :class:`AtlasError` into one clear sentence and a non-zero exit; anything else
is a bug and keeps its traceback.
"""

from __future__ import annotations


class AtlasError(Exception):
    """A failure caused by input (files, params, endpoints), reported without a traceback."""

    exit_code = 2


class ValidationFailures(AtlasError):
    """Several independent problems found in one pass; all of them are reported."""

    def __init__(self, failures: list[str]) -> None:
        self.failures = failures
        super().__init__("\n".join(failures))
