"""Instruction-following rows: the normative rule checker of eval-instruction-v1, shipped as
its rules.py (never edited), and the row builder of -v1 and -v2 (``compose``)."""
