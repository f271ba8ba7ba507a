"""When a commit's surfaces follow it: at once, or once the click that made it is answered.

The engine says every commit (``engine.signals.Committed``); ``Following.committed`` hears it and
starts the fan-out (``Surfaces.changed``). A click, or a command, that answers on its own surface first
holds ``answering()`` while it commits and answers: its commits' fan-outs wait for the scope to end,
so the answer goes out first and is never raced by an edit of the same message. The scope is found
through a context variable, because the engine publishes inside the caller's task, during its commit;
a commit made outside any open scope (a timer, another process, a command that holds none) is followed
at once. Forgetting the scope costs order, never an update: the surfaces still follow."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar


class _Scope:
    def __init__(self) -> None:
        self.open = True
        self.pending: list[int] = []  # the matches it committed, in order


# (a timer armed inside a scope inherits its context: an ended scope is therefore ignored)
_ANSWERING: ContextVar[_Scope | None] = ContextVar("answering", default=None)


class Following:
    def __init__(self, changed: Callable[[int], None]) -> None:
        self.changed = changed  # the coordinator's fan-out

    def committed(self, match_id: int) -> None:
        scope = _ANSWERING.get()
        if scope is not None and scope.open:
            if match_id not in scope.pending:
                scope.pending.append(match_id)
        else:
            self.changed(match_id)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around a click's (or command's) commit and its answer: the surfaces follow afterwards."""
        scope = _Scope()
        token = _ANSWERING.set(scope)
        try:
            yield
        finally:
            scope.open = False
            _ANSWERING.reset(token)
            for match_id in scope.pending:
                self.changed(match_id)
