"""Multilingual families of eval-multilingual-v1, -v2 and -v3: number words, the lexicon, the
tasks, the mc layer of -v2, -v3's vocabulary of neighbouring names (``neighbours``) and probes
(``near_misses``) (eval-knowledge-v2 takes its day and month names from ``lexicon``).
"""
