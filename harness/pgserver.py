"""A throwaway PostgreSQL server on loopback, for tests and benchmarks (never for the bot itself).

``with pgserver.running() as url:`` initialises a cluster in a temporary folder, starts it on a free
port and stops it (and removes the folder) afterwards. It uses the machine's PostgreSQL binaries
(Debian's ``postgresql`` package: .ci/run installs it). PostgreSQL refuses to run as root, so as root
the server runs as the ``postgres`` user the package creates.

``python -m harness.pgserver`` starts one and prints its URL until Ctrl-C (handy by hand).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from collections.abc import Iterator


class NoServer(Exception):
    """No PostgreSQL binaries on this machine."""


def binaries() -> str | None:
    """The folder holding initdb and pg_ctl (the newest installed version), or None."""
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(os.path.realpath(found))
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return os.path.dirname(versions[-1]) if versions else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(folder: str) -> tuple[dict[str, object], str]:
    """Run as root -> run the server as ``postgres`` (owning the folder); else as ourselves."""
    if os.geteuid() != 0:
        return {}, pwd.getpwuid(os.geteuid()).pw_name
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:  # binaries without the package's user: any unprivileged account will do
        user = pwd.getpwnam("nobody")
    for root, dirs, files in os.walk(folder):
        for name in [root, *(os.path.join(root, n) for n in dirs + files)]:
            os.chown(name, user.pw_uid, user.pw_gid)
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}, user.pw_name


class Server:
    """A running throwaway server that tests can restart, stop, kill and freeze (issue 22)."""

    def __init__(self, bin_dir: str, data: str, options: str, folder: str, quiet: dict[str, object]) -> None:
        self.bin_dir, self.data, self.options, self.folder, self.quiet = bin_dir, data, options, folder, quiet
        self.url = ""

    def _ctl(self, *args: str, check: bool = True) -> None:
        subprocess.run([f"{self.bin_dir}/pg_ctl", "-D", self.data, *args], check=check, **self.quiet)  # type: ignore[call-overload]

    def start(self) -> None:
        self._ctl("-o", self.options, "-l", f"{self.folder}/server.log", "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: every session is closed at once; ``immediate``: as after a crash."""
        self._ctl("-m", mode, "-w", "stop", check=False)

    def restart(self, mode: str = "fast") -> None:
        self.stop(mode)
        self.start()

    def pids(self) -> list[int]:
        """The postmaster and every process it started."""
        with open(os.path.join(self.data, "postmaster.pid")) as f:
            main = int(f.readline())
        out = [main]
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == main:
                        out.append(int(entry))
        return out

    def kill(self) -> None:
        """SIGKILL the postmaster (a crashed server; its sessions die with it), then clean up."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.stop("immediate")

    def freeze(self) -> None:
        """SIGSTOP the whole server: connections stay open and nothing answers (a VM paused)."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@contextlib.contextmanager
def running(*, durable: bool = False) -> Iterator[str]:
    """A server for the duration of the block; yields its URL. ``durable``: keep fsync and
    synchronous commits on (benchmarks compare it with SQLite fairly); tests turn them off."""
    with controlled(durable=durable) as server:
        yield server.url


@contextlib.contextmanager
def controlled(*, durable: bool = False) -> Iterator[Server]:
    """``running``, yielding the Server (its ``url``, and the faults a test may cause)."""
    bin_dir = binaries()
    if bin_dir is None:
        raise NoServer("no PostgreSQL binaries found (install Debian's postgresql package)")
    folder = tempfile.mkdtemp(prefix="stoneage-pg-")
    os.chmod(folder, 0o755)
    data = os.path.join(folder, "data")
    run_as, user = _as_owner(folder)
    port = _free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, **run_as}
    try:
        subprocess.run(
            [f"{bin_dir}/initdb", "-D", data, "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True,
            **quiet,  # type: ignore[arg-type]
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        if not durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        server = Server(bin_dir, data, options, folder, quiet)
        server.start()
        server.url = f"postgresql://{user}@127.0.0.1:{port}/postgres"
        try:
            yield server
        finally:
            with contextlib.suppress(OSError):
                server.thaw()
            server.stop("immediate")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    import time

    with running() as url:
        print(url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
