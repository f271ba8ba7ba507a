"""Message catalogues, one module per language."""
