"""Security families of eval-security-v2 and -v3 (``snippets``: the handler templates of
``vulns``).
"""
