"""Inference: talking to an OpenAI-compatible endpoint (or the embedded model) and journaling.

``httpx`` imports its optional command-line client (click, pygments, rich syntax) from its
package ``__init__`` unless that import fails; marking it absent before httpx is first imported
saves about 90 ms of ``atlas infer`` start-up. The CLI (``python -m httpx``) is never used here.
"""

import sys

sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
