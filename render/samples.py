"""``./run samples``: re-render every game's README images into docs/images/."""

from __future__ import annotations

from render.honga import samples as honga
from render.ubongo import samples as ubongo
from render.ugah import samples as ugah
from render.uonga import samples as uonga


def main() -> None:
    ugah.main([])
    uonga.main()
    ubongo.main()
    honga.main()


if __name__ == "__main__":
    main()
