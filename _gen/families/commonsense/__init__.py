"""Commonsense families of eval-commonsense-v2 and -v3 (``names``: the people in them)."""
