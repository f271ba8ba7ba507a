"""Cogs are extensions with ``async def setup(bot)``: one shared, one per game."""
