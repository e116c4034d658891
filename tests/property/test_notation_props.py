"""Every legal action has one text that reads back to it; records round-trip as text.

Each test adds what it checked to :data:`CHECKED`, printed at the end of the
module (run pytest with ``-s`` to see the counts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splendor import (
    GameRecord,
    IllegalActionError,
    NotationError,
    apply,
    format_action,
    format_record,
    from_json,
    legal_actions,
    new_game,
    parse_action,
    parse_record,
    to_json,
    view,
)
from tests.exercised import check_paths
from tests.strategies import RandomGame, random_games, spread

CHECKED: Counter[str] = Counter()
# The paths each test must go down at least once.
PATHS: dict[str, tuple[str, ...]] = {
    "test_every_legal_action_round_trips_through_a_text_of_its_own": (
        "legal actions round-tripped",
        "states whose actions have distinct texts",
    ),
    "test_the_movers_view_and_sloppy_typing_read_the_same_action": (
        "actions read from a view and retyped",
    ),
    "test_any_text_is_read_as_a_legal_action_or_refused_with_a_library_error": (
        "texts refused",
        "texts read as legal actions",
    ),
    "test_a_record_round_trips_through_text_as_through_json": (
        "records round-tripped",
        "record lines read",
    ),
}


@pytest.fixture(scope="module", autouse=True)
def _report_counts(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    print(f"\n{__name__}: " + ", ".join(f"{n} {what}" for what, n in sorted(CHECKED.items())))
    check_paths(request, CHECKED, PATHS)


@given(random_games(max_turns=200))
def test_every_legal_action_round_trips_through_a_text_of_its_own(game: RandomGame) -> None:
    for state in spread(game.states(), 8):
        actions = legal_actions(state)
        texts = [format_action(action, state) for action in actions]
        assert len(set(texts)) == len(texts)
        for action, text in zip(actions, texts, strict=True):
            assert parse_action(text, state) == action
        CHECKED["legal actions round-tripped"] += len(actions)
        CHECKED["states whose actions have distinct texts"] += 1


@given(random_games(max_turns=200), st.data())
def test_the_movers_view_and_sloppy_typing_read_the_same_action(
    game: RandomGame, data: st.DataObject
) -> None:
    state = data.draw(st.sampled_from(game.states()))
    actions = legal_actions(state)
    if not actions:
        return
    action = data.draw(st.sampled_from(actions))
    mine = view(state, state.current_player)
    text = format_action(action, state)
    assert format_action(action, mine) == text
    assert parse_action(text, mine) == action
    flips = data.draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    sloppy = " ".join(c.swapcase() if flip else c for c, flip in zip(text, flips, strict=True))
    assert parse_action(f"  {sloppy}\t", state) == action
    CHECKED["actions read from a view and retyped"] += 1


_NOTATION_CHARACTERS = "+-=#rbpdnRBPDNwgkyWGKY*0123456789 tx"
# Texts near the notation: the right shape, with any tier, slot, gems and noble.
_NEAR_MISSES = (
    r"(\+[wbgrky]{1,3}|r[0-4][0-5d]|b[0-4][0-5]|br[0-3]|p)"
    r"(-[wbgrky]{1,2})?(=[wbgrky]{0,4})?(n[0-9]{1,2})?"
)


@given(
    st.one_of(
        st.text(alphabet=_NOTATION_CHARACTERS, max_size=12),
        st.from_regex(_NEAR_MISSES, fullmatch=True),
    )
)
def test_any_text_is_read_as_a_legal_action_or_refused_with_a_library_error(text: str) -> None:
    state = new_game(2, seed=1)
    try:
        action = parse_action(text, state)
    except (NotationError, IllegalActionError):
        CHECKED["texts refused"] += 1
        return
    apply(state, action)
    CHECKED["texts read as legal actions"] += 1


@given(random_games(max_turns=120))
def test_a_record_round_trips_through_text_as_through_json(game: RandomGame) -> None:
    final = game.final_state()
    record = GameRecord(
        players=game.players,
        seed=game.seed,
        rules=game.rules,
        actions=tuple(game.actions()),
        result=final.winners or None,
    )
    text = format_record(record)
    back = parse_record(text)
    assert back == record
    assert back == from_json(to_json(record), GameRecord)
    assert format_record(back) == text
    CHECKED["records round-tripped"] += 1
    CHECKED["record lines read"] += len(record.actions)
