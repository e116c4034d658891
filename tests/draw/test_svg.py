"""SVG pictures of states and views: :func:`splendor.render_svg`."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import attrs
import pytest

from splendor import (
    CARDS_BY_ID,
    GameState,
    InvalidArgumentError,
    ReserveFromDeck,
    apply,
    legal_actions,
    new_game,
    render_svg,
    view,
)
from splendor.arena.tournament import round_robin
from splendor.draw.svg import SvgImage

SVG = "{http://www.w3.org/2000/svg}"


def played(players: int, seed: int, turns: int) -> GameState:
    state = new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == cls]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


@pytest.mark.parametrize(
    ("players", "seed", "turns"),
    [(2, 1, 0), (2, 2, 35), (3, 3, 60), (4, 4, 90), (2, 5, 400), (4, 6, 400)],
)
def test_a_picture_is_well_formed_and_shows_the_numbers(
    players: int, seed: int, turns: int
) -> None:
    state = played(players, seed, turns)
    root = parse(render_svg(state))
    assert root.tag == f"{SVG}svg"

    supply = {g.get("data-gem"): g for g in groups(root, "supply-token")}
    for gem, count in state.bank.items():
        token = supply[gem.value]
        assert token.get("data-count") == str(count)
        assert texts(token) == [str(count), gem.letter]

    decks = {g.get("data-tier"): g for g in groups(root, "deck")}
    for tier in (1, 2, 3):
        size = len(state.deck(tier))
        assert decks[str(tier)].get("data-count") == str(size)
        assert f"{size} left" in texts(decks[str(tier)])

    face_up = sorted(c.id for row in state.board for c in row if c is not None)
    reserved = sorted(c.id for p in state.players for c in p.reserved)
    shown = sorted(int(g.get("data-card-id", "0")) for g in groups(root, "card"))
    assert shown == sorted(face_up + reserved)
    for g in groups(root, "card"):
        card_id = int(g.get("data-card-id", "0"))
        the_card = CARDS_BY_ID[card_id]
        costs = {c.get("data-gem"): int(c.get("data-count", "0")) for c in groups(g, "cost")}
        assert costs == {gem.value: n for gem, n in the_card.cost.items() if n}
        assert (str(the_card.points) in texts(g)) == (the_card.points > 0)

    nobles = [int(g.get("data-noble-id", "0")) for g in groups(root, "noble")]
    held = [n.id for p in state.players for n in p.nobles]
    assert sorted(nobles) == sorted([n.id for n in state.nobles] + held)

    panels = groups(root, "player")
    assert len(panels) == players
    for seat, (panel, player) in enumerate(zip(panels, state.players, strict=True)):
        assert panel.get("data-seat") == str(seat)
        assert panel.get("data-points") == str(player.points)
        assert str(player.points) in texts(panel)
        tokens = {g.get("data-gem"): g.get("data-count") for g in groups(panel, "player-token")}
        assert tokens == {gem.value: str(n) for gem, n in player.tokens.items()}
        bonuses = {g.get("data-gem"): g.get("data-count") for g in groups(panel, "bonus")}
        assert bonuses == {
            gem.value: str(n) for gem, n in player.bonuses.items() if gem.value != "gold"
        }


def test_the_headline_names_the_winner_once_the_game_is_over() -> None:
    state = played(2, 5, 1000)
    assert state.is_over
    root = parse(render_svg(state, names=["Ann", "Bo"]))
    headline = next(t for t in root.iter(f"{SVG}text") if t.get("class") == "headline")
    winner = ["Ann", "Bo"][state.winners[0]]
    assert headline.text is not None
    assert "Game over" in headline.text
    assert winner in headline.text


def blind_reserve_game() -> GameState:
    state = new_game(2, seed=8)
    state = apply(state, ReserveFromDeck(3))  # seat 0 reserves blind
    return apply(state, ReserveFromDeck(1))  # seat 1 too


def test_a_seats_viewpoint_hides_the_other_seats_blind_reserves() -> None:
    state = blind_reserve_game()
    hidden_card = state.players[1].reserved[0]
    own_card = state.players[0].reserved[0]
    root = parse(render_svg(state, seat=0))
    ids = {g.get("data-card-id") for g in groups(root, "card")}
    assert str(own_card.id) in ids
    assert str(hidden_card.id) not in ids
    (back,) = groups(root, "hidden-reserve")
    assert back.get("data-tier") == "1"


def test_an_open_picture_shows_blind_reserves_marked_as_blind() -> None:
    state = blind_reserve_game()
    picture = render_svg(state)
    ids = {g.get("data-card-id") for g in groups(parse(picture), "card")}
    assert {str(p.reserved[0].id) for p in state.players} <= ids
    assert picture.count(">blind<") == 2


def test_a_view_draws_like_the_state_from_its_seat() -> None:
    state = blind_reserve_game()
    assert render_svg(view(state, 1)) == render_svg(state, seat=1)
    spectator = parse(render_svg(view(state, None)))
    assert len(groups(spectator, "hidden-reserve")) == 2


def test_names_are_escaped() -> None:
    root = parse(render_svg(new_game(2, seed=1), names=["<Ann & Bo>", 'Cy "C"']))
    assert "<Ann & Bo>" in texts(root)


def test_characters_xml_forbids_are_replaced_and_the_rest_kept() -> None:
    names = ["\x00Ann\x1b", "Bo\x08\ud800\uffff\tCy \u00e9\U0001f48e"]
    root = parse(render_svg(new_game(2, seed=1), names=names))
    shown = texts(root)
    assert "\ufffdAnn\ufffd" in shown
    assert "Bo\ufffd\ufffd\ufffd\tCy \u00e9\U0001f48e" in shown
    title = root.find(f"{SVG}title")
    assert title is not None
    assert title.text == "Splendor: Start of the game: \ufffdAnn\ufffd to move"


def test_the_picture_displays_itself_in_notebooks() -> None:
    picture = render_svg(new_game(2, seed=1))
    assert isinstance(picture, SvgImage)
    assert picture._repr_svg_() == str(picture)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seat": 2}, "seat must be"),
        ({"names": ["one"]}, "expected 2 names"),
        ({"names": "ab"}, "expected 2 names"),
        ({"names": 5}, "sequence of str, got int"),
        ({"names": iter(["Ann", "Bo"])}, "sequence of str"),
        ({"names": {"Ann", "Bo"}}, "sequence of str"),
        ({"names": ["Ann", 7]}, "a name must be a str"),
        ({"names": [None, "Bo"]}, "a name must be a str"),
    ],
)
def test_bad_arguments_are_explained(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        render_svg(new_game(2, seed=1), **kwargs)  # type: ignore[arg-type]  # deliberately wrong


def test_only_states_and_views_are_drawn() -> None:
    with pytest.raises(InvalidArgumentError, match="GameState or a player's view"):
        render_svg("board")
    with pytest.raises(InvalidArgumentError, match="own seat"):
        render_svg(view(new_game(2, seed=1), 0), seat=1)


def test_the_rating_plot_of_a_tournament_is_well_formed_whatever_the_names() -> None:
    result = round_robin(["random", "greedy"], games=2, seed=1)
    odd = "\x00\x1b<&"
    renamed = tuple(attrs.evolve(r, name=f"{odd}{r.name}") for r in result.ratings)
    root = ET.fromstring(attrs.evolve(result, ratings=renamed).render_svg())
    shown = {"".join(element.itertext()) for element in root.iter(f"{SVG}text")}
    assert "\ufffd\ufffd<&greedy" in shown
    assert "\ufffd\ufffd<&random" in shown


def test_the_picture_of_a_state_is_well_formed_whatever_the_names() -> None:
    root = ET.fromstring(render_svg(new_game(2, seed=1), names=["\x00\x1b<&", "'\"Bo\"'"]))
    assert {"\ufffd\ufffd<&", "'\"Bo\"'"} <= set(texts(root))
