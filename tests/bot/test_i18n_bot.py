"""German and Spanish through SimCord: commands answer in the clicking user's language, the public
board speaks the server's, and the command tree hands Discord German and Spanish names."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import discord
import pytest
import simcord.interactions as sim_interactions
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.command_i18n import CommandTranslator
from bot.i18n import translator
from engine.registry import rules_for
from harness.sim import components
from tests.bot.helpers import board, button_id, custom_ids, play_one, setup_table

DE, ES, EN = translator("de"), translator("es-ES"), translator(None)


def _labels(message: Any) -> list[str]:
    return [str(c.label) for c in components(message) if getattr(c, "label", None)]


@pytest.fixture
def user_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """SimCord sends every interaction as en-US from an en-US guild: here each user's Discord locale
    comes from the returned dict, and guild_locale from the guild's preferred_locale, as Discord does."""
    locales: dict[int, str] = {}
    original = sim_interactions.base_payload

    def base_payload(backend: Any, **kw: Any) -> Any:
        record, payload = original(backend, **kw)
        payload["locale"] = locales.get(kw["user_id"], "en-US")
        if kw.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kw["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(sim_interactions, "base_payload", base_payload)
    return locales


async def test_a_slash_command_answers_in_the_users_language(simcord_env, user_locales):
    env = simcord_env
    _, channel, (alice, bob, carol) = setup_table(env, 3)
    user_locales.update({alice.id: "de", bob.id: "es-419"})
    games = ""
    german = await alice.slash(channel, "game rules")
    spanish = await bob.slash(channel, "game rules")
    english = await carol.slash(channel, "game rules")
    for result in (german, spanish, english):
        assert result.ephemeral
    assert german.response.content.startswith("Spiele, die du hier starten kannst:")
    assert spanish.response.content.startswith(ES("rules.index", games=games).split("\n")[0])
    assert not spanish.response.content.startswith("Games")
    assert english.response.content.startswith("Games you can start here:")
    rules = await alice.slash(channel, "ugah rules")
    assert rules.response.content == DE("rules.ugah") != EN("rules.ugah")
    assert "Mammutmatscher" in rules.response.content


async def test_a_game_in_a_german_server_with_a_spanish_player(simcord_env, user_locales, monkeypatch):
    env = simcord_env
    import bot.games.ugah as ugah_ui

    drawn: list[dict[str, str]] = []  # the labels of every board image drawn
    real = ugah_ui.RENDERER.board

    def spy(*args: Any, **kw: Any) -> bytes:
        drawn.append(dict(kw["labels"]))
        return real(*args, **kw)

    monkeypatch.setattr(ugah_ui.UgahUI, "renderer", dataclasses.replace(ugah_ui.RENDERER, board=spy))
    guild = env.create_guild(preferred_locale="de")
    channel = guild.create_text_channel("spiele")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    user_locales.update({alice.id: "es-ES", bob.id: "es-419"})
    started = await alice.slash(channel, "ugah start", variant="basic")
    assert not started.ephemeral
    lobby = board(channel)
    assert "Mitspielen" in lobby.content, "the public lobby speaks the server's German"
    assert "Grundspiel" in lobby.content
    await alice.click(lobby, custom_id=button_id(lobby, "ai.normal", "l"))
    await alice.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    mid = int(button_id(board(channel), "hand", "h").split(":")[1])
    m, _ = await env.bot.matches.get(mid)
    assert m.meta.locale == "de"

    first = board(channel)
    assert "Ugah Ugah!" in first.content and "Grundspiel" in first.content
    assert first.attachments[0].description.startswith("Ugah-Ugah!-Brett"), "alt text in German"
    assert "Meine Plättchen" in _labels(first), _labels(first)

    # private answers follow the clicking user's locale: Spanish
    hand = await alice.click(first, custom_id=button_id(first, "hand", "h"))
    assert hand.ephemeral
    assert hand.response.content.startswith(ES("ugah.hand.chips", count=0, n=0, chips="").split("(")[0])
    # (the hand as the committed state holds it: a computer that moves first may give alice a chip)
    m, state = await env.bot.matches.get(mid)
    seat = next(i for i, s in enumerate(m.seats) if s.user_id == alice.id)
    view = rules_for("ugah").view(state, seat)
    assert hand.response.content == ugah_ui.UgahUI().hand(view, seat, translator("es")), "in Spanish"
    if not view["stash"]:
        assert ES("ugah.hand.none") in hand.response.content
    assert "Your chips" not in hand.response.content and "Deine Plättchen" not in hand.response.content
    intruder = await bob.click(first, custom_id=custom_ids(first, "g:")[0])
    assert intruder.ephemeral
    assert ES("error.not_in_match") in intruder.response.content

    rng = random.Random(3)
    for _ in range(400):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        result = await play_one(env, channel, [alice], mid, rng)
        assert not result.ephemeral, result.response and result.response.content
    assert m.status == "finished"
    final = board(channel)
    assert "🏆 Spiel vorbei. Sieger:" in final.content, final.content
    assert "Game over" not in final.content and "Winner" not in final.content
    assert "Endstand" in final.attachments[0].description
    assert DE("button.rematch") in _labels(final), _labels(final)
    assert drawn and all(labels["spoils"] == "BEUTE" for labels in drawn), "German words on the board"
    assert drawn[-1]["caption_winner"] == DE("render.ugah.caption_winner")
    # a turn line in the story uses the German plural forms ("geht 1 Schritt" / "geht 3 Schritte")
    assert "step" not in final.content


def test_the_command_translator_names_and_describes_in_german_and_spanish():
    t = CommandTranslator()
    de, es, es_latam = (
        discord.Locale.german,
        discord.Locale.spain_spanish,
        discord.Locale.latin_american_spanish,
    )
    assert t.lookup(app_commands.locale_str("game"), de, Where.group_name) == "spiel"
    assert t.lookup(app_commands.locale_str("game"), es, Where.group_name) == ES("cmd.game.name") != "game"
    assert t.lookup(app_commands.locale_str("rules"), de, Where.command_name) == "regeln"
    assert t.lookup(app_commands.locale_str("rules"), es_latam, Where.command_name) == ES("cmd.rules.name")
    assert ES("cmd.rules.name") != "rules"
    assert t.lookup(app_commands.locale_str("turn_seconds"), de, Where.parameter_name) == "zugzeit"
    hand = app_commands.locale_str("Show your hand", key="cmd.game.hand")
    assert t.lookup(hand, de, Where.command_description) == DE("cmd.game.hand")
    assert t.lookup(hand, es, Where.command_description) == ES("cmd.game.hand") != EN("cmd.game.hand")
    assert t.lookup(hand, discord.Locale.american_english, Where.command_description) is None
    assert t.lookup(hand, discord.Locale.french, Where.command_description) is None
    # a string without a key (a choice) is found by its English text
    assert t.lookup(app_commands.locale_str(EN("ugah.variant.basic")), de, Where.choice_name) == "Grundspiel"
    # a game's own name stays as it is
    assert t.lookup(app_commands.locale_str("ugah"), de, Where.group_name) is None


async def test_the_synced_commands_carry_german_and_spanish_localizations(simcord_env):
    env = simcord_env
    assert isinstance(env.bot.tree.translator, CommandTranslator)
    game = env.backend.find_command("game", None)
    assert game is not None
    assert game["name_localizations"]["de"] == "spiel"
    assert game["name_localizations"]["es-ES"] == ES("cmd.game.name") != "game"
    assert game["description_localizations"]["de"] == DE("cmd.game")
    subs = {o["name"]: o for o in game["options"]}
    assert subs["rules"]["name_localizations"]["de"] == "regeln"
    assert subs["hand"]["description_localizations"]["es-ES"] == ES("cmd.game.hand")
    ugah = env.backend.find_command("ugah", None)
    start = {o["name"]: o for o in ugah["options"]}["start"]
    variant = {o["name"]: o for o in start["options"]}["variant"]
    assert variant["name_localizations"]["de"] == "variante"
    basic = next(c for c in variant["choices"] if c["value"] == "basic")
    assert basic["name_localizations"]["de"] == "Grundspiel"
    for cmd in (game, ugah):
        for loc, text in cmd["description_localizations"].items():
            assert 1 <= len(text) <= 100, (loc, text)
    # the games that run for days (issue 36): /game mine, /game notify state:, and the start's pace
    assert subs["mine"]["name_localizations"] == {"de": "meine", "es-ES": "mías", "es-419": "mías"}
    assert subs["notify"]["name_localizations"]["de"] == "benachrichtigen"
    state = {o["name"]: o for o in subs["notify"]["options"]}["state"]
    assert state["name_localizations"]["es-ES"] == ES("opt.state.name") == "estado"
    names = {o["name"]: o.get("name_localizations") or {} for o in start["options"]}
    assert names["pace"]["de"] == "tempo" and names["turn_hours"]["es-ES"] == "horas_turno"
    assert names["timeout"]["de"] == DE("opt.timeout.name") != "timeout"


async def ubongo_lobby_in_german(env, user_locales, ana_locale: str, jonas_locale: str):
    """An Ubongo lobby in a German server: ana (host) and jonas seated, with their own languages."""
    guild = env.create_guild(preferred_locale="de")
    channel = guild.create_text_channel("spiele")
    ana = guild.add_member(env.create_user("ana"))
    jonas = guild.add_member(env.create_user("jonas"))
    user_locales.update({ana.id: ana_locale, jonas.id: jonas_locale})
    await ana.slash(channel, "ubongo start", side="A")
    await jonas.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    return channel, ana, jonas


async def test_puzzles_by_dm_speak_each_players_language(simcord_env, user_locales):
    """Ubongo in a German server: the board is German, each player's DM in their own language."""
    from tests.kit_ubongo import dm_board

    env = simcord_env
    channel, ana, jonas = await ubongo_lobby_in_german(env, user_locales, "es-ES", "de")
    await ana.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    assert DE("ev.started") in board(channel).content and "Runde 1 von 8" in board(channel).content
    spanish, german = dm_board(ana).content, dm_board(jonas).content
    assert spanish.startswith(ES("ubongo.dm.head", round="", side="", need=3).split("·")[0])
    assert ES("ubongo.dm.round", n=1, total=8) in spanish and ES("ubongo.dm.side", side="A") in spanish
    assert DE("ubongo.dm.round", n=1, total=8) in german and "Seite A" in german
    assert "round 1 of 8" not in spanish + german


async def test_localized_names_stay_unique_among_siblings(simcord_env):
    """Discord refuses a command whose options (or subcommands) share a name in some language."""
    env = simcord_env
    tops = list(env.backend.commands.get(None, {}).values())
    assert len(tops) >= 5

    def check(siblings: list[dict[str, Any]], where: str) -> None:
        for locale in ("de", "es-ES", "es-419"):
            shown = [(o.get("name_localizations") or {}).get(locale, o["name"]) for o in siblings]
            assert len(shown) == len(set(shown)), (where, locale, shown)
        for o in siblings:
            check([c for c in o.get("options") or [] if "type" in c], f"{where}/{o['name']}")

    check(tops, "")


async def test_every_command_stays_within_discords_size_limit(simcord_env):
    """Discord refuses a command whose names, descriptions and choice values, with every
    localization, add up to more than 8000 characters (counted here over all languages at once)."""

    def count(o: dict[str, Any]) -> int:
        n = len(o.get("name", "")) + len(o.get("description", ""))
        for key in ("name_localizations", "description_localizations"):
            n += sum(len(v) for v in (o.get(key) or {}).values())
        for c in o.get("choices") or []:
            n += len(c["name"]) + len(str(c["value"]))
            n += sum(len(v) for v in (c.get("name_localizations") or {}).values())
        return n + sum(count(sub) for sub in o.get("options") or [])

    sizes = {cmd["name"]: count(cmd) for cmd in simcord_env.backend.commands.get(None, {}).values()}
    assert sizes["ubongo"] > 2000, "localizations are counted"
    assert max(sizes.values()) <= 8000, sizes


async def test_a_spanish_server_with_a_german_host(simcord_env, user_locales):
    env = simcord_env
    guild = env.create_guild(preferred_locale="es-ES")
    channel = guild.create_text_channel("juegos")
    host = guild.add_member(env.create_user("hanna"))
    user_locales[host.id] = "de"
    await host.slash(channel, "uonga start", side="cavemen")
    lobby = board(channel)
    assert ES("lobby.join") in _labels(lobby) and "Mitspielen" not in _labels(lobby)
    assert ES("uonga.opt.side.cavemen") in lobby.content
    await host.click(lobby, custom_id=button_id(lobby, "ai.easy", "l"))
    await host.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    game = board(channel)
    assert ES("game.uonga") in game.content and ES("uonga.team.cavemen") in game.content
    assert "Urmenschen" not in game.content and "Cavemen" not in game.content
    private = await host.slash(channel, "game hand")
    assert private.ephemeral and private.response.content == DE("error.no_hand")
    rules = await host.slash(channel, "game rules")
    assert rules.response.content == DE("rules.uonga"), "the running game's rules, in German"


async def test_a_players_dm_language_survives_a_restart(simcord_env, user_locales, bot_factory):
    """The language is stored with the seat: after a restart (or on another shard's process, which
    never saw the player click) the DM still speaks it."""
    from tests.bot.helpers import restart
    from tests.kit_ubongo import dm_board

    env = simcord_env
    channel, ana, jonas = await ubongo_lobby_in_german(env, user_locales, "de", "es-ES")
    m = await env.bot.matches.live_in_channel(channel.id)
    assert [s.locale for s in m.seats] == ["de", "es-ES"]
    await restart(env, bot_factory)
    await ana.click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    german, spanish = dm_board(ana).content, dm_board(jonas).content
    assert ES("ubongo.dm.round", n=1, total=8) in spanish, "jonas never clicked in the new process"
    assert DE("ubongo.dm.round", n=1, total=8) in german
