"""Multilingual families of eval-multilingual-v1 and -v2: number words, the lexicon, the tasks and
the mc layer of -v2 (eval-knowledge-v2 takes its day and month names from ``lexicon``).
"""
