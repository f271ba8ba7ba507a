"""Writing a game's sample images (``Renderer.samples``) into docs/images/, where the README shows
them. Which games there are is the bot's registry: ``./run samples`` goes through ``tools.samples``."""

from __future__ import annotations

from pathlib import Path

DOCS_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def write(images: dict[str, bytes], out_dir: Path = DOCS_IMAGES) -> list[Path]:
    """Each image as ``<stem>.png`` in ``out_dir``; the paths written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for stem, png in images.items():
        path = out_dir / f"{stem}.png"
        path.write_bytes(png)
        paths.append(path)
        print(f"{path.name}  {len(png)} bytes")
    return paths
