"""``./run samples``: every registered game's README images, then the same pictures in every
translated language, then the 🎓 step of /replay of each game with lessons (tools.lesson_sample),
into docs/images/ (or the folder given)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.games import SPECS
from bot.i18n import TRANSLATED
from render.samples import DOCS_IMAGES, write
from tools import i18n, lesson_sample


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="./run samples", description=__doc__)
    parser.add_argument(
        "folder", nargs="?", type=Path, default=DOCS_IMAGES, help="where (default: docs/images)"
    )
    out = parser.parse_args(argv).folder
    for spec in SPECS.values():
        write(spec.renderer.samples(), out)
    i18n.samples(TRANSLATED, out)
    lesson_sample.main([str(out)])


if __name__ == "__main__":
    main(sys.argv[1:])
