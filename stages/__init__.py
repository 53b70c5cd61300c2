"""Inference Atlas: reproducible accuracy and serving benchmarks for OpenAI-compatible endpoints."""

__version__ = "0.1.0"
