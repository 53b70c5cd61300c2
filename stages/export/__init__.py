"""``atlas export``: a scored run in formats other tools load (issue 34).

every_eval_ever (an aggregate JSON and an instance-level JSONL, :mod:`stages.export.eee`) and the
Hugging Face Hub's ``.eval_results/`` YAML (:mod:`stages.export.hf`), both read from the git-tracked
files of one revision (:mod:`stages.export.run_files`). docs/exporting.md maps every field.
"""
