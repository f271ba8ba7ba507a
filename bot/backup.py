"""``python -m bot.backup TARGET`` (``./run backup TARGET``): a consistent copy of the match database,
taken while the bot keeps running.

- SQLite (``DATABASE_URL`` unset): SQLite's online backup API copies ``DATABASE_PATH`` into TARGET, a
  database file that can be opened as it is or put back as ``DATABASE_PATH`` (bot stopped).
- PostgreSQL (``DATABASE_URL=postgresql://...``): ``pg_dump --format=custom`` writes one consistent
  snapshot of the whole database into TARGET, however many bot processes write meanwhile; the way to
  restore it (``pg_restore``) is printed on success.

TARGET appears only once the copy is complete (it is written beside it under a temporary name, then
renamed), readable by its owner only. The database password never appears in anything printed, nor on
pg_dump's command line (which every local user can read): pg_dump gets it through ``PGPASSWORD``.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from urllib.parse import unquote, urlsplit

from bot.settings import database_url, resolve_database_path
from engine.store import StoreError
from engine.store.sqlite import SqliteStore

POSTGRES_SCHEMES = ("postgresql", "postgres")  # the two URI designators libpq accepts
PG_DUMP_MISSING = (
    "pg_dump not found: install the PostgreSQL client tools, at least as new as the server "
    "(Debian/Ubuntu: apt install postgresql-client; Fedora: dnf install postgresql; macOS: brew install libpq)"
)


class BackupError(Exception):
    """A one-line, user-facing reason the backup was not made (never contains a password)."""


# ---- PostgreSQL URLs ------------------------------------------------------------------------------


def is_postgres(url: str) -> bool:
    return urlsplit(url).scheme.lower() in POSTGRES_SCHEMES


def _join(scheme: str, netloc: str, path: str, query: str, fragment: str) -> str:
    """urlunsplit, except that an empty host stays ``postgresql:///db`` (libpq: the local socket)."""
    return (
        f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "") + (f"#{fragment}" if fragment else "")
    )


def split_password(url: str) -> tuple[str, str | None]:
    """(the URL without its password, the password decoded) — the password may sit in the authority
    (``user:pw@host``) or in a ``password=`` parameter; libpq reads both. Several hosts
    (``host1:5432,host2:5432``) and the other parameters are kept as written."""
    parts = urlsplit(url)
    password = None
    netloc = parts.netloc
    userinfo, at, hosts = netloc.rpartition("@")
    if at and ":" in userinfo:
        user, _, raw = userinfo.partition(":")
        password = unquote(raw)
        netloc = f"{user}@{hosts}"
    kept = []
    for pair in parts.query.split("&") if parts.query else []:
        key, _, value = pair.partition("=")
        if unquote(key) == "password":
            password = unquote(value)
        else:
            kept.append(pair)
    bare = _join(parts.scheme, netloc, parts.path, "&".join(kept), parts.fragment)
    return bare, password


def redact(url: str) -> str:
    """The URL as it may be printed: its password, if any, shown as ``***``."""
    parts = urlsplit(url)
    netloc = parts.netloc
    userinfo, at, hosts = netloc.rpartition("@")
    if at and ":" in userinfo:
        netloc = f"{userinfo.partition(':')[0]}:***@{hosts}"
    query = "&".join(
        "password=***" if unquote(pair.partition("=")[0]) == "password" else pair
        for pair in (parts.query.split("&") if parts.query else [])
    )
    return _join(parts.scheme, netloc, parts.path, query, parts.fragment)


def _scrub(text: str, password: str | None) -> str:
    """pg_dump never sees the password in its URL, so its messages cannot quote it; this is only a
    second guard (skipped for very short ones, which would mangle the message)."""
    return text.replace(password, "***") if password and len(password) >= 4 else text


# ---- the two backends ----------------------------------------------------------------------------


def backup_postgres(url: str, target: str) -> str:
    """pg_dump the database named by ``url`` into ``target`` (custom format); returns the restore
    command to print. Raises BackupError."""
    pg_dump = shutil.which("pg_dump")
    if pg_dump is None:
        raise BackupError(PG_DUMP_MISSING)
    bare, password = split_password(url)
    env = dict(os.environ)
    if password is not None:
        env["PGPASSWORD"] = password

    def dump(partial: str) -> None:
        try:
            done = subprocess.run(
                [pg_dump, "--format=custom", f"--file={partial}", f"--dbname={bare}"],
                env=env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
            )
        except OSError as err:  # not executable, and the like
            raise BackupError(f"cannot run {pg_dump}: {err.strerror or err}") from None
        if done.returncode != 0:
            lines = [" ".join(line.split()) for line in done.stderr.splitlines() if line.strip()]
            detail = "; ".join(_scrub(line, password) for line in lines) or f"exit status {done.returncode}"
            hint = ""
            if "version mismatch" in detail:
                hint = " (this pg_dump is older than the server: install the server's version)"
            raise BackupError(f"pg_dump failed for {redact(url)}: {detail}{hint}")

    _write_atomically(target, dump)
    command = [
        "pg_restore",
        "--clean",
        "--if-exists",
        "--no-owner",
        "--single-transaction",
        "--dbname",
        bare,
        target,
    ]
    return shlex.join(command)


def backup_sqlite(source: str, target: str) -> None:
    """SQLite's online backup of ``source`` into ``target``: consistent even mid-write, and taken
    alongside a running bot (the bot's instance lock is left alone). Raises BackupError."""
    if not os.path.exists(source):
        raise BackupError(f"no database at {source} (DATABASE_PATH)")

    async def copy(partial: str) -> None:
        store = SqliteStore(source, exclusive=False)  # the SQLite store: its online backup API
        try:
            await store.open()
            await store.backup(partial)
        finally:
            await store.close()

    def run(partial: str) -> None:
        try:
            asyncio.run(copy(partial))
        except (StoreError, sqlite3.Error) as err:
            raise BackupError(f"cannot back up {source}: {' '.join(str(err).split())}") from None

    _write_atomically(target, run)


def _write_atomically(target: str, write) -> None:
    """``write(partial)`` fills a new file beside ``target`` (mode 0600: a backup holds every match),
    which then replaces ``target``; on any failure ``target`` is left as it was and nothing remains."""
    if os.path.isdir(target):
        raise BackupError(f"{target} is a folder: name the backup file")
    folder = os.path.dirname(os.path.abspath(target))
    try:
        handle, partial = tempfile.mkstemp(
            prefix=f".{os.path.basename(target)}.", suffix=".partial", dir=folder
        )
    except OSError as err:
        raise BackupError(f"cannot write in {folder}: {err.strerror or err}") from None
    os.close(handle)
    try:
        write(partial)
        os.replace(partial, target)
    except OSError as err:
        raise BackupError(f"cannot write {target}: {err.strerror or err}") from None
    finally:
        if os.path.exists(partial):
            os.unlink(partial)


# ---- command line ---------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python -m bot.backup TARGET_FILE   (./run backup TARGET_FILE)", file=sys.stderr)
        return 2
    target = argv[0]
    url = database_url(".env")
    try:
        if url:
            if not is_postgres(url):
                raise BackupError(
                    f"DATABASE_URL must start with postgresql:// (it is {redact(url)}); "
                    "leave it unset to use SQLite at DATABASE_PATH"
                )
            restore = backup_postgres(url, target)
            print(f"backed up {redact(url)} -> {target} (pg_dump custom format)")
            print("restore it (stop the bots first; pg_restore asks for the password, or set PGPASSWORD):")
            print(f"  {restore}")
        else:
            source = resolve_database_path(move=False)  # data/ugah.db of an older install too
            backup_sqlite(source, target)
            print(f"backed up {source} -> {target} (SQLite online backup)")
            print(
                f"restore it: stop the bot, delete {source}-wal and {source}-shm if they remain, "
                f"then copy {target} to {source}"
            )
    except BackupError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
