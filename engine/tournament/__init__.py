"""Tournaments: pure pairings (pairing.py) and standings (standings.py) for Swiss, round robin and knockout."""
