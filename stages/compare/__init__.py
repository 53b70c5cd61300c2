"""Comparing two revisions item by item: ``atlas compare A B`` (issue 10).

Item verdicts are git-tracked (``metrics/verdicts/<workload>.jsonl``), so two commits, two DVC
experiments or a commit and the workspace can be paired without the DVC cache.
"""
