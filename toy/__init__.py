"""A test-only game that uses every platform mechanism the real games need: seats acting at once,
a DM surface, a countdown that runs when the first player finishes, a round limit, a computer seat
with a think time, and a display-only control. Registered by ``register()`` for tests only."""
