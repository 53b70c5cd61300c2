"""Code families: eval-code-v1's task families (``base`` and the four v1 modules), the further
families eval-code-v2 adds, and the code snippets of prompts-code-v1 (``snippets``).
"""
