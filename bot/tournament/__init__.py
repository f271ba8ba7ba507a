"""Tournaments on Discord: the runner (one writer per tournament) and what a tournament shows."""
