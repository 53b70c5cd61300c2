"""Instruction-following rows: the normative rule checkers shipped as each dataset's rules.py
(``rules`` for -v1 and -v2, never edited; ``rules_v3`` for -v3), the row builders (``compose``,
``compose_v3``) and -v3's broken twins and faithful variants of each example."""
