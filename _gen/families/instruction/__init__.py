"""The normative rule checker of eval-instruction-v1, shipped as its rules.py (never edited)."""
