"""Synthetic JavaScript projects of eval-longgen-integrity-v1 (``jsproject``, ``jsblocks``)."""
