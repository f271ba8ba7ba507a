"""Recompute every die and shuffle of a finished match from its revealed seed (provably fair dice).

    python tools/verify_seed.py match-42.json                  # the log /game fair attaches
    python tools/verify_seed.py --game ugah --players 2 SEED 0:pick.bird 1:first.mm ...

Checks that SHA-256 of the seed's decimal digits equals the hash shown when the game started, replays
the rules from the seed with the logged actions (seat:action; seat -1 is the rules' timers), prints
every event (the rolls and shuffles), and compares the result with the log's final state."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.errors import EngineError
from engine.fair import replay, seed_hash
from engine.registry import rules_for


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("seed_or_log", help="the match seed, or the path of an exported log (.json)")
    p.add_argument("actions", nargs="*", help="seat:action, in the logged order")
    p.add_argument("--game", default="ugah")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--options", default="{}", help="the match options as JSON")
    p.add_argument("--hash", dest="expected", help="the seed hash shown when the game started")
    p.add_argument("--quiet", action="store_true", help="print only the verdict")
    a = p.parse_args(argv)
    if a.seed_or_log.isdigit():
        log = {
            "game": a.game,
            "players": a.players,
            "options": json.loads(a.options),
            "seed": int(a.seed_or_log),
            "seed_sha256": a.expected,
            "actions": [[int(x.split(":", 1)[0]), x.split(":", 1)[1]] for x in a.actions],
            "final": None,
        }
    else:
        log = json.loads(Path(a.seed_or_log).read_text())
    ok = True
    digest = seed_hash(log["seed"])
    print(f"seed {log['seed']}: sha256 {digest}")
    if log.get("seed_sha256"):
        match = digest == log["seed_sha256"]
        ok &= match
        print("hash matches the one shown at the start" if match else f"HASH MISMATCH: {log['seed_sha256']}")
    pairs = [(int(s), str(x)) for s, x in log["actions"]]
    try:
        state, events = replay(log["game"], log["players"], log["options"], log["seed"], pairs)
    except EngineError as err:  # another seed deals other dice: a logged action becomes impossible
        print(f"REPLAY FAILED: {err!r}")
        print("NOT VERIFIED")
        return 1
    if not a.quiet:
        for e in events:
            print(f"  {e.kind} {json.dumps(e.data, sort_keys=True)}")
    final = rules_for(log["game"]).dump(state)
    if log.get("final") is not None:
        same = json.dumps(final, sort_keys=True) == json.dumps(log["final"], sort_keys=True)
        ok &= same
        print("replay equals the final state" if same else "REPLAY DIFFERS from the final state")
    print("VERIFIED" if ok else "NOT VERIFIED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
