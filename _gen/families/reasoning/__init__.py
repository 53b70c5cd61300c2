"""Reasoning families of eval-reasoning-v1 to -v3, each brute-forcing its own answers."""
