"""``python -m bot.backup TARGET``: copy the match database safely while the bot runs (SQLite online
backup: a consistent snapshot even mid-write)."""

from __future__ import annotations

import asyncio
import os
import sys

from dotenv import load_dotenv

from engine.store import Store


async def backup(source: str, target: str) -> None:
    store = Store(source)
    await store.open()
    try:
        await store.backup(target)
    finally:
        await store.close()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bot.backup TARGET_FILE", file=sys.stderr)
        return 2
    load_dotenv(".env", override=False)
    source = os.environ.get("DATABASE_PATH", "").strip() or "data/ugah.db"
    if not os.path.exists(source):
        print(f"error: no database at {source}", file=sys.stderr)
        return 1
    asyncio.run(backup(source, argv[0]))
    print(f"backed up {source} -> {argv[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
