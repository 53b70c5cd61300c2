"""Code families: eval-code-v1's task families (``base`` and the four v1 modules), the further
families eval-code-v2 adds, eval-code-v3's mutants of every family and the hidden inputs that
kill them (``mutation`` and the ``mutants_*`` modules), eval-code-v4's seeded input generators
(``inputs`` and the ``inputs_*`` modules), generic mutation operators (``ast_mutants``,
``ast_operators``, ``ast_statements``, ``source_text``) and differential runs that choose the
hidden tests (``differential``, ``hidden_tests``), the literal-assert helpers the code suites
share (``assertions``), and the code snippets of prompts-code-v1 (``snippets``).
"""
