"""Tournament pictures (render.tournament): valid PNGs of the fixed width, the same bytes for the same
input, long names cut inside their column, 64 players drawn, a dropped player drawn differently, and
an alt text naming every player."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageChops

from render import common as c
from render import png
from render import tournament as t
from render.tournament_samples import sample_podium, sample_standings

HEADERS = ("#", "Player", "Pts", "Buchholz", "S-B", "W-D-L")


def _image(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def _lines(n: int, name: str = "Ayla") -> tuple[t.Line, ...]:
    return tuple(
        t.Line(
            str(i + 1),
            f"{name} {i + 1}",
            f"{(n - i) // 2}½",
            (f"{20 - i / 4:.2f}", f"{9 - i / 8:.1f}"),
            "3-1-0",
        )
        for i in range(n)
    )


def _picture(lines: tuple[t.Line, ...], **changes: object) -> t.StandingsPicture:
    picture = t.StandingsPicture(
        "Spring Uonga Swiss — after round 2 of 4", "Uonga · Swiss", HEADERS, lines, "Next"
    )
    return dataclasses.replace(picture, **changes)


def _diff(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    """The box of the pixels two same-sized PNGs differ in (None: none)."""
    ia, ib = _image(a).convert("RGB"), _image(b).convert("RGB")
    assert ia.size == ib.size
    return ImageChops.difference(ia, ib).getbbox()


def _with_line(picture: t.StandingsPicture, i: int, **changes: object) -> t.StandingsPicture:
    lines = list(picture.lines)
    lines[i] = dataclasses.replace(lines[i], **changes)
    return dataclasses.replace(picture, lines=tuple(lines))


@pytest.mark.parametrize("rows", [1, 9, 32, 64])
def test_standings_are_pngs_of_the_fixed_width_growing_with_the_rows(rows: int) -> None:
    img = _image(t.standings_png(_picture(_lines(rows))))
    assert img.format == "PNG" and img.mode == "P" and img.width == t.W
    shorter = _image(t.standings_png(_picture(_lines(rows - 1)))) if rows > 1 else None
    if shorter is not None:
        assert img.height > shorter.height


def test_podium_is_a_png_of_the_fixed_width_and_the_rest_adds_rows() -> None:
    picture = sample_podium()
    full = _image(t.podium_png(picture))
    bare = _image(t.podium_png(dataclasses.replace(picture, rest=(), headers=())))
    assert full.format == bare.format == "PNG" and full.width == bare.width == t.W
    assert full.height > bare.height
    for n in (1, 2):  # fewer than three places still draw, each a different picture
        img = _image(t.podium_png(dataclasses.replace(picture, places=picture.places[:n])))
        assert img.size == full.size


def test_the_same_input_gives_the_same_bytes_whatever_was_drawn_before() -> None:
    standings, podium = sample_standings(), sample_podium()
    first = t.standings_png(standings), t.podium_png(podium)
    t.standings_png(_picture(_lines(20)))
    png.forget()  # no band remembered: every band deflated afresh
    assert (t.standings_png(standings), t.podium_png(podium)) == first
    assert t.standings_png(dataclasses.replace(standings, footer="Next: round 4")) != first[0]


@pytest.mark.parametrize("rows", [9, 64])
@pytest.mark.parametrize("dropped", [False, True])
def test_a_long_name_is_cut_inside_its_column(rows: int, dropped: bool) -> None:
    long_name = "Hunna the Mammoth Rider of the Great Northern Ice Caves"  # wider than any column
    base = _with_line(_picture(_lines(rows)), 3, name="", dropped=dropped)
    long = _with_line(base, 3, name=long_name)
    lay, top = t.standings_layout(long)
    x0, x1 = lay.name
    assert c.text_width(long_name, lay.size.name) > x1 - x0  # it had to be cut
    box = _diff(t.standings_png(base), t.standings_png(long))
    assert box is not None
    left, upper, right, lower = box
    assert x0 <= left and right <= x1  # the name and its marker stay in their column
    assert top + 3 * lay.size.row <= upper and lower <= top + 4 * lay.size.row  # and in their row
    assert right > x0 + 0.85 * (x1 - x0)  # cut near the column's end, not far short of it


def test_an_emoji_in_a_name_draws_no_empty_box() -> None:
    picture = _picture(_lines(3))
    plain = t.standings_png(_with_line(picture, 1, name="Chaka"))
    assert t.standings_png(_with_line(picture, 1, name="Chaka 🦣")) == plain


def test_64_players_draw_every_row_in_dense_rows_of_readable_text() -> None:
    picture = _picture(_lines(64))
    lay, top = t.standings_layout(picture)
    assert lay.size == t.DENSE and min(lay.size.name, lay.size.small) >= 20
    img = _image(t.standings_png(picture))
    assert img.height >= top + 64 * lay.size.row
    # the last row is drawn: changing its name changes pixels inside that row only
    box = _diff(t.standings_png(picture), t.standings_png(_with_line(picture, 63, name="Zog")))
    assert box is not None
    assert top + 63 * lay.size.row <= box[1] and box[3] <= top + 64 * lay.size.row


@pytest.mark.parametrize("flag", ["dropped", "highlight"])
def test_a_dropped_or_highlighted_player_changes_only_their_row(flag: str) -> None:
    picture = _picture(_lines(9))
    lay, top = t.standings_layout(picture)
    box = _diff(t.standings_png(picture), t.standings_png(_with_line(picture, 5, **{flag: True})))
    assert box is not None
    assert top + 5 * lay.size.row <= box[1] and box[3] <= top + 6 * lay.size.row


def test_the_table_keeps_every_column_inside_the_picture_with_many_tie_breaks() -> None:
    lines = tuple(dataclasses.replace(line, tiebreaks=("12½",) * 5) for line in _lines(5))
    lay, _ = t.standings_layout(_picture(lines, headers=("#", "Player", "Pts")))
    cells = lay.cells()
    assert len(cells) == 9 and cells[0][0] == t.PAD and cells[-1][1] <= t.W - t.PAD
    assert all(a < b for a, b in cells) and lay.name[1] - lay.name[0] >= t.MIN_NAME_W
    assert _image(t.standings_png(_picture(lines, headers=()))).width == t.W


def test_the_alt_text_names_every_player_within_discords_limit() -> None:
    picture = sample_standings()
    alt = t.standings_alt(picture)
    assert len(alt) <= 1024 and picture.title in alt and picture.footer in alt
    for line in picture.lines:
        assert f"{line.rank}. {line.name} {line.points}" in alt  # emoji kept: screen readers say them
    assert alt.count("✗") == sum(line.dropped for line in picture.lines) == 1


def test_a_long_alt_text_shortens_the_names_but_keeps_every_player() -> None:
    picture = _picture(_lines(64, name="Hunna the Mammoth Rider of the North"))
    alt = t.standings_alt(picture)
    assert len(alt) <= 1024 and alt.endswith("Next")
    for line in picture.lines:
        assert f"; {line.rank}. Hun" in alt or alt.startswith(
            f"{picture.title} · {picture.subtitle}. Player, Pts: 1. Hun"
        )
    assert alt.count("…") == 64 and alt.count(";") == 63


@pytest.mark.parametrize("place", [0, 1, 2])
def test_a_long_name_on_the_podium_stays_over_its_block(place: int) -> None:
    picture = dataclasses.replace(sample_podium(), rest=())
    places = list(picture.places)
    places[place] = ("", places[place][1])
    base = dataclasses.replace(picture, places=tuple(places))
    places[place] = ("Hunna the Mammoth Rider of the Great Northern Ice Caves", places[place][1])
    box = _diff(t.podium_png(base), t.podium_png(dataclasses.replace(picture, places=tuple(places))))
    assert box is not None
    centre = t.CENTRE[place + 1]
    assert centre - t.BLOCK_W // 2 <= box[0] and box[2] <= centre + t.BLOCK_W // 2
    assert box[2] - box[0] > 0.9 * t.BLOCK_W - 8  # shrunk and cut to the block, not to a stub
