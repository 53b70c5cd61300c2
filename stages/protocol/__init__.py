"""The OpenAI-compatible protocols: reading chat streams and Responses events into one answer,
the reasoning and answer channels, Responses bodies from chat ones, and each engine's dialect."""
