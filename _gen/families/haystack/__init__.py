"""Haystack documents: the reference builder shipped as datasets/haystack-v1/build.py
(``build``, never edited: a change is a new dataset id) and the needle recipes of haystack-v1 and
eval-longctx-v1/-v2.
"""
