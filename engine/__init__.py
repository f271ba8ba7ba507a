"""Pure game rules and the async match engine. Nothing here imports discord."""
