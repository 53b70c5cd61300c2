"""Inference: talking to an OpenAI-compatible endpoint (or the embedded model) and journaling."""
