"""French-English sentences of eval-translation-v1: the lexicon, the renderer and the agreement
checks its proof runs.
"""
