"""Task families, one folder per suite, one module per family (or its shared data).

A generator at the top of ``_gen/`` composes the families of its suite, e.g.
``from families.security import ciphers, cidr``. A suite's shared parts sit beside its
families (``code/base.py``, ``science/base.py``, ``multilingual/lexicon.py``, ...). Modules
here import ``common`` and their own suite, and a family another suite needs is imported
from where it lives (``code/snippets.py`` takes its vocabulary from ``longgen/jsproject.py``).
"""
