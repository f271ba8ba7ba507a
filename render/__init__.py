"""Board images drawn with Pillow only (no discord, no engine import).

Each game module reads a *player view* dict (secrets already stripped by the engine) and returns PNG
bytes. ``render.common`` holds the shared primitives: bundled DejaVu fonts, text fitting, rounded
boxes, supersampled sprites and the fixed-palette PNG encoder. Static backgrounds and sprites are
built once under a lock and never mutated, so renders may run concurrently in worker threads.
"""
