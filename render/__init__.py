"""Board images: a player's view in, PNG bytes out, drawn with Pillow (no discord import).

Each game module reads a *player view* dict (secrets already stripped by the engine) and returns PNG
bytes. Renderers import the engine's rules *data* only (Honga's field layout, Ubongo's piece
shapes), never a match, a store or a game state; the ``samples`` modules (the README images) play
seeded games through the engine's rules to get their views. ``render.common`` holds the shared
primitives: bundled DejaVu fonts, text fitting, rounded boxes, supersampled sprites and the
fixed-palette encoding (written band by band by ``render.png``, with the standard library's zlib).
Static backgrounds and sprites are built once under a lock and never mutated, so renders may run
concurrently: in the bot's render threads, or in its drawing processes (``bot/render_pool.py``).
"""
