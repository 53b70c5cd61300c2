"""Passages of eval-drop-v1: game summaries and histories, each with its parser and questions."""
