"""One module per game, each exposing a stateless ``RULES`` object (see engine.core.Rules)."""
