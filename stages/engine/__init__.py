"""The embedded engine: llama.cpp's ``llama-server`` on a GGUF shipped in a PyPI wheel."""
