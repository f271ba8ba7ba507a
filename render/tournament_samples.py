"""The tournament pictures' README samples (docs/images/tournament_standings.png and
tournament_podium.png): a Swiss tournament of nine Stone Age players, one of whom dropped out."""

from __future__ import annotations

from render import tournament as t

SAMPLE_NAMES = (
    "Ayla of the Red Cave",
    "Borg the Bold",
    "Chaka 🦣",
    "Dagny Flintknapper",
    "Eshe",
    "Grok",
    "Hunna Mammothrider",
    "Ikka",
    "Jorun",
)


def sample_standings() -> t.StandingsPicture:
    rows = (
        ("1", "3½", ("7½", "9¼"), "3-1-0", False, True),
        ("2", "3", ("8", "8½"), "3-0-1", False, False),
        ("=3", "2½", ("8½", "6¾"), "2-1-1", False, False),
        ("=3", "2½", ("7", "5¾"), "2-1-1", False, False),
        ("5", "2", ("9", "5"), "2-0-2", False, False),
        ("6", "2", ("6½", "3½"), "1-2-1", True, False),
        ("7", "1½", ("7", "2¼"), "1-1-2", False, False),
        ("8", "1", ("6", "1"), "1-0-3", False, False),
        ("9", "½", ("5½", "¼"), "0-1-3", False, False),
    )
    return t.StandingsPicture(
        title="Spring Uonga Swiss — after round 4 of 5",
        subtitle="Uonga · Swiss · 9 players",
        headers=("#", "Player", "Pts", "Buchholz", "S-B", "W-D-L"),
        lines=tuple(
            t.Line(rank, name, pts, tb, rec, dropped, hi)
            for name, (rank, pts, tb, rec, dropped, hi) in zip(SAMPLE_NAMES, rows, strict=True)
        ),
        footer="Next: round 5 starts now",
    )


def sample_podium() -> t.PodiumPicture:
    rest = (
        ("4", "Dagny Flintknapper", "3", ("10", "7¾"), "3-0-2", False),
        ("5", "Eshe", "2½", ("9½", "5¼"), "2-1-2", False),
        ("6", "Grok", "2", ("6½", "3½"), "1-2-1", True),
        ("7", "Hunna Mammothrider", "2", ("8", "3¼"), "2-0-3", False),
        ("8", "Ikka", "1", ("7", "1"), "1-0-4", False),
        ("9", "Jorun", "½", ("6½", "¼"), "0-1-4", False),
    )
    return t.PodiumPicture(
        title="Spring Uonga Swiss — final standings",
        places=(("Ayla of the Red Cave", "4½"), ("Borg the Bold", "4"), ("Chaka 🦣", "3½")),
        rest=tuple(t.Line(rank, name, pts, tb, rec, dropped) for rank, name, pts, tb, rec, dropped in rest),
        headers=("#", "Player", "Pts", "Buchholz", "S-B", "W-D-L"),
    )


def samples() -> dict[str, bytes]:
    """The README images (docs/images/tournament_standings.png, tournament_podium.png)."""
    return {
        "tournament_standings": t.standings_png(sample_standings()),
        "tournament_podium": t.podium_png(sample_podium()),
    }
