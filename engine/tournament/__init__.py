"""Tournaments: pairings and standings (pure), and a tournament's record and its changes."""
