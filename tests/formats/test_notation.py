"""The text notation of actions and of game records."""

from __future__ import annotations

import random

import pytest

from splendor import (
    Buy,
    Card,
    GameRecord,
    GameState,
    IllegalActionError,
    InvalidArgumentError,
    Noble,
    NotationError,
    Pass,
    Reserve,
    ReserveFromDeck,
    Rules,
    SplendorError,
    Take,
    apply,
    format_action,
    format_record,
    from_json,
    legal_actions,
    parse_action,
    parse_record,
    to_json,
    view,
)
from tests.builders import (
    bonus_cards,
    card,
    deadlocked,
    deal,
    noble,
    toks,
    with_deck,
    with_player,
)

# deal(2, seed=1) lays out, by tier and slot:
#   tier 1: #24 #3 #12 #2      tier 2: #66 #42 #61 #65      tier 3: #85 #74 #88 #84
# and reveals nobles N2 (4W 4K), N10 (4R 4K), N5 (3W 3R 3K).


def _start() -> GameState:
    return deal(2, seed=1)


def _both(text: str, state: GameState) -> str:
    """Check that ``text`` reads back to an action whose notation is ``text``."""
    action = parse_action(text, state)
    assert format_action(action, state) == text
    return text


def test_take_is_plus_and_the_gem_letters() -> None:
    state = _start()
    assert parse_action("+WBG", state) == Take(toks("W B G"))
    assert parse_action("+RR", state) == Take(toks("2R"))
    assert format_action(Take(toks("K G W")), state) == "+WGK"
    assert _both("+GRK", state)


@pytest.mark.parametrize("text", ["+wbg", "+ W B G", "take wbg", "TAKE G B W", "+gwb", "\t+W\nBG "])
def test_parsing_ignores_case_spaces_and_gem_order(text: str) -> None:
    assert parse_action(text, _start()) == Take(toks("W B G"))


def test_a_digit_repeats_the_next_letter() -> None:
    assert parse_action("+2r", _start()) == Take(toks("2R"))


def test_returns_follow_a_minus_sign() -> None:
    state = with_player(_start(), tokens=toks("2W 2B 2G 2R 1K"))
    action = parse_action("+WBG-RK", state)
    assert action == Take(toks("W B G"), returned=toks("R K"))
    assert action in legal_actions(state)
    assert format_action(action, state) == "+WBG-RK"
    assert parse_action("+wbg - r k", state) == action


def test_returns_are_never_guessed() -> None:
    state = with_player(_start(), tokens=toks("2W 2B 2G 2R 1K"))
    with pytest.raises(IllegalActionError, match="exactly 2 token"):
        parse_action("+WBG", state)


def test_reserve_names_tier_and_slot_or_the_deck() -> None:
    state = _start()
    assert parse_action("r23", state) == Reserve(card(61))
    assert parse_action("r2d", state) == ReserveFromDeck(2)
    assert parse_action("reserve 3 D", state) == ReserveFromDeck(3)
    assert format_action(Reserve(card(84)), state) == "r34"
    assert format_action(ReserveFromDeck(1), state) == "r1d"


def test_reserve_with_a_return_over_the_limit() -> None:
    state = with_player(_start(), tokens=toks("2W 2B 2G 2R 2K"))
    assert _both("r23-Y", state)
    assert parse_action("r23-Y", state) == Reserve(card(61), returned=toks("Y"))
    assert parse_action("r1d-W", state) == ReserveFromDeck(1, returned=toks("W"))
    with pytest.raises(IllegalActionError, match="exactly 1 token"):
        parse_action("r23", state)


def test_buy_names_a_face_up_card_and_fills_the_default_payment() -> None:
    state = with_player(_start(), tokens=toks("3W 2B 2G 2Y"))
    action = parse_action("b21", state)
    assert action == Buy(card(66), toks("3W 2B 2G"))
    assert action in legal_actions(state)
    assert format_action(action, state) == "b21"
    assert format_action(Buy(card(66)), state) == "b21"


def test_a_payment_other_than_the_default_follows_an_equals_sign() -> None:
    state = with_player(_start(), tokens=toks("3W 2B 2G 2Y"))
    action = parse_action("b21=WWWBBGY", state)
    assert action == Buy(card(66), toks("3W 2B 1G 1Y"))
    assert format_action(action, state) == "b21=WWWBBGY"
    assert parse_action("buy 2 1 = 3w 2b g *", state) == action


def test_buy_a_reserved_card_by_its_index_in_the_reserve() -> None:
    state = with_player(_start(), tokens=toks("3W 2B 2G 2R 1Y"), reserved=[card(1), card(7)])
    first, second = (parse_action(text, state) for text in ("br1", "br2"))
    assert first.card is card(1)  # type: ignore[union-attr]  # a Buy
    assert second.card is card(7)  # type: ignore[union-attr]  # a Buy
    assert format_action(first, state) == "br1"
    assert parse_action("b#7", state) == second


def test_a_card_may_be_named_by_its_id() -> None:
    state = _start()
    assert parse_action("r#61", state) == Reserve(card(61))
    with pytest.raises(IllegalActionError, match="not face up"):
        parse_action("r#1", state)


def test_the_one_noble_that_comes_is_filled_in() -> None:
    state = with_player(_start(), tokens=toks("3W 2B 2G"), cards=bonus_cards(toks("4R 3K")))
    action = parse_action("b21", state)
    assert action == Buy(card(66), toks("3W 2B 2G"), noble(10))
    assert format_action(action, state) == "b21n10"
    assert parse_action("b21n10", state) == action


def test_a_noble_must_be_named_when_several_come() -> None:
    state = with_player(_start(), tokens=toks("3W 2B 2G"), cards=bonus_cards(toks("3W 4R 3K")))
    with pytest.raises(IllegalActionError, match="several nobles can come: add one of n"):
        parse_action("b21", state)
    chosen = parse_action("b21 n5", state)
    assert chosen == Buy(card(66), toks("2B 2G"), noble(5))
    assert format_action(chosen, state) == "b21n5"


def test_a_noble_that_does_not_come_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="N2"):
        parse_action("+WBGn2", _start())


def test_pass_is_p() -> None:
    state = deadlocked(2)
    assert parse_action("p", state) == Pass()
    assert parse_action("PASS", state) == Pass()
    assert format_action(Pass(), state) == "p"
    assert format_action(Pass(noble(3)), state) == "pn3"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "expected an action"),
        ("x", "expected an action"),
        ("+", "the gems to take"),
        ("+WBX", "colours are W B G R K .and Y for gold. or their names, got 'WBX'"),
        ("+WB X", "another colour: colours are .*, got 'X'"),
        ("r4", "a tier 1-3"),
        ("r2", "a slot 1-4 or 'd'"),
        ("r25", "a slot 1-4"),
        ("b2d", "a slot 1-4 after the tier"),
        ("br", "the index"),
        ("+WBG-", "the tokens returned"),
        ("+WBG=W", "'-' and the tokens returned"),
        ("b11-W", "'=' and the payment"),
        ("p3", "n<id>"),
        ("+WBGn11", "a noble id 1-10"),
        ("+WBGn", "a noble id"),
        ("r#91", "a card id 1-90"),
        ("+2", "a colour after the count 2"),
    ],
)
def test_garbage_is_a_notation_error_saying_what_was_expected(text: str, expected: str) -> None:
    with pytest.raises(NotationError, match=expected) as caught:
        parse_action(text, _start())
    assert isinstance(caught.value, SplendorError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("+YY", "gold cannot be taken"),
        ("+WB", "take 3 gems"),
        ("b14", "cannot afford"),
        ("br1", "holds 0 reserved"),
        ("b#1", "not face up nor reserved"),
        ("p", "pass is legal only"),
    ],
)
def test_a_well_formed_illegal_action_is_an_illegal_action_error(text: str, reason: str) -> None:
    with pytest.raises(IllegalActionError, match=reason):
        parse_action(text, _start())


def test_an_empty_slot_or_deck_is_illegal() -> None:
    state = with_deck(_start(), 1, ())
    with pytest.raises(IllegalActionError, match="deck is empty"):
        parse_action("r1d", state)
    emptied = deadlocked(2)
    with pytest.raises(IllegalActionError, match="slot 2 of tier 1 is empty"):
        parse_action("r12", emptied)


def test_nothing_is_legal_once_the_game_is_over() -> None:
    state = _start()
    rng = random.Random(2)
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        state = apply(state, parse_action(format_action(action, state), state))
    with pytest.raises(IllegalActionError, match="game is over"):
        parse_action("p", state)


def test_format_refuses_a_card_not_in_play_here() -> None:
    with pytest.raises(IllegalActionError, match="not face up"):
        format_action(Reserve(card(1)), _start())
    with pytest.raises(IllegalActionError, match="nor reserved"):
        format_action(Buy(card(1)), _start())


def test_bad_arguments_are_invalid_argument_errors() -> None:
    with pytest.raises(InvalidArgumentError):
        format_action("+WBG", _start())  # type: ignore[arg-type]  # checking it is refused
    with pytest.raises(InvalidArgumentError):
        parse_action(3, _start())  # type: ignore[arg-type]  # checking it is refused
    with pytest.raises(InvalidArgumentError):
        parse_action("+WBG", "state")  # type: ignore[arg-type]  # checking it is refused
    with pytest.raises(InvalidArgumentError):
        format_action(ReserveFromDeck(4), _start())


def test_the_movers_view_reads_and_writes_like_the_state() -> None:
    state = with_player(_start(), tokens=toks("3W 2B 2G 2R 1Y"), reserved=[card(1)])
    mine = view(state, 0)
    for action in legal_actions(state):
        text = format_action(action, state)
        assert format_action(action, mine) == text
        assert parse_action(text, mine) == action
    with pytest.raises(InvalidArgumentError, match="seat to move"):
        parse_action("+WBG", view(state, 1))


def _played(seed: int, names: tuple[str, ...] | None = None) -> GameRecord:
    record = GameRecord.start(3, seed=seed, rules=Rules(points_to_win=8), names=names)
    rng = random.Random(seed)
    while record.result is None:
        record = record.append(rng.choice(legal_actions(record.final_state())))
    return record


def test_a_record_is_a_header_then_one_action_per_line() -> None:
    record = _played(4, names=("Ada", "Bo; the second", "Cy"))
    text = format_record(record)
    lines = text.splitlines()
    assert lines[:5] == [
        "players: 3",
        "seed: 4",
        "rules: points_to_win=8",
        'names: ["Ada", "Bo; the second", "Cy"]',
        "result: " + " ".join(map(str, record.result or ())),
    ]
    assert lines[5] == ""
    assert len(lines) == 6 + len(record.actions)
    states = record.replay()
    assert [parse_action(line, s) for line, s in zip(lines[6:], states, strict=False)] == list(
        record.actions
    )


def test_a_record_round_trips_through_text_and_matches_its_json() -> None:
    for seed in range(3):
        record = _played(seed, names=None if seed else ("A", "B", "C"))
        back = parse_record(format_record(record))
        assert back == record
        assert back == from_json(to_json(record), GameRecord)
        assert back.final_state() == record.final_state()


def test_reading_a_record_skips_blank_lines_and_comments() -> None:
    text = "; a game\nplayers: 2\nseed: 1\n\n+RR   ; two red\n\n; nothing\n+ w b g\n"
    record = parse_record(text)
    assert record == GameRecord(2, seed=1, actions=(Take(toks("2R")), Take(toks("W B G"))))
    assert record.rules == Rules()


def test_reading_a_record_with_house_rules() -> None:
    text = "players: 4\nseed: 9\nrules: gold_by_players=0,0,5 token_limit=8\n"
    assert parse_record(text).rules == Rules(gold_by_players=(0, 0, 5), token_limit=8)


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("seed: 1\n", NotationError, "no 'players'"),
        ("players: 2\n", NotationError, "no 'seed'"),
        ("players: two\nseed: 1\n", NotationError, "must be an integer"),
        ("players: 7\nseed: 1\n", NotationError, "2 to 4"),
        ("players: 2\nseed: 1\nmoves: 3\n", NotationError, "line 3: unknown header"),
        ("players: 2\nseed: 1\nseed: 2\n", NotationError, "given twice"),
        ("players: 2\nseed: 1\nrules: fast\n", NotationError, "cannot read 'fast'"),
        ("players: 2\nseed: 1\nrules: token_limit=x\n", NotationError, "must be an integer"),
        ("players: 2\nseed: 1\nrules: token_limit=-1\n", NotationError, "token_limit"),
        ("players: 2\nseed: 1\nnames: Ann, Bo\n", NotationError, "JSON list"),
        ("players: 2\nseed: 1\n+RR\nseed: 2\n", NotationError, "line 4: a header line after"),
        ("players: 2\nseed: 1\n\n+RR\n+Q\n", NotationError, "line 5: cannot read"),
        ("players: 2\nseed: 1\n\n+RR\n+RR\n", IllegalActionError, "line 5: take 2 red"),
        ("players: 2\nseed: 1\nresult: 0\n\n+RR\n", IllegalActionError, "does not match"),
    ],
)
def test_a_bad_record_names_the_line_and_the_problem(
    text: str, error: type[SplendorError], message: str
) -> None:
    with pytest.raises(error, match=message):
        parse_record(text)


def test_format_record_refuses_what_is_not_a_record() -> None:
    with pytest.raises(InvalidArgumentError):
        format_record("players: 2")  # type: ignore[arg-type]  # checking it is refused
    with pytest.raises(InvalidArgumentError):
        parse_record(b"players: 2")  # type: ignore[arg-type]  # checking it is refused


def test_unlisted_but_legal_forms_are_accepted() -> None:
    state = with_player(_start(), tokens=toks("3W 3B 2G"))
    # Taking blue, green, red and giving red back: the engine lists the same
    # outcome as +WBG-W, and accepts this form too.
    action = parse_action("+BGR-R", state)
    assert action == Take(toks("B G R"), returned=toks("R"))
    assert action not in legal_actions(state)
    assert parse_action("+WBG-W", state) in legal_actions(state)
    assert format_action(action, state) == "+BGR-R"


def _with_reserved(count: int) -> GameState:
    """The first player to move holds ``count`` tier 1 cards reserved from the deck."""
    state = deal(2, seed=1, rules=Rules(reserve_limit=count))
    held = state.decks[0][:count]
    return with_player(state, reserved=held, tokens=toks("5Y"))


def test_a_reserve_index_of_two_digits_round_trips() -> None:
    state = _with_reserved(12)
    tenth = state.player.reserved[9]
    assert format_action(Buy(tenth), state) == "br10"
    assert parse_action("br10", state) == Buy(tenth, toks(f"{tenth.cost.total}Y"))
    last = state.player.reserved[11]
    assert parse_action("BR 12", state) == Buy(last, toks(f"{last.cost.total}Y"))
    with pytest.raises(IllegalActionError, match="holds 12 reserved"):
        parse_action("br13", state)
    with pytest.raises(NotationError):
        parse_action("br91", state)
    with pytest.raises(NotationError):
        parse_action("br0", state)


def test_a_reserve_index_of_two_digits_round_trips_for_every_listed_buy() -> None:
    state = _with_reserved(12)
    buys = [a for a in legal_actions(state) if type(a) is Buy]
    held = state.player.reserved
    assert any(a.card in held and held.index(a.card) >= 9 for a in buys)
    texts = [format_action(a, state) for a in buys]
    assert len(set(texts)) == len(texts)
    assert [parse_action(t, state) for t in texts] == buys


@pytest.mark.parametrize(
    "text", ["r\u00b21", "+\u00b2r", "b#\u00b9", "b\u2460\u2460", "br\u00b9", "pn\u00b9"]
)
def test_digits_int_cannot_read_are_not_digits(text: str) -> None:
    with pytest.raises(NotationError):
        parse_action(text, _start())


@pytest.mark.parametrize(
    ("text", "character"),
    [
        ("+\u0662r", "\u0662"),  # an Arabic-Indic 2
        ("r\u0661\u0661", "\u0661"),
        ("+\u212a", "\u212a"),  # the Kelvin sign, which lower-cases to k
        ("+\uff37BG", "\uff37"),  # a full-width W
        ("take red\u00a0blue", "\u00a0"),  # a no-break space
    ],
)
def test_characters_outside_ascii_are_refused(text: str, character: str) -> None:
    with pytest.raises(NotationError, match="is not part of the notation") as info:
        parse_action(text, _start())
    assert repr(character) in str(info.value)


def test_format_action_refuses_a_copy_of_a_card_or_noble() -> None:
    state = _start()
    real = card(24)
    copy = Card(real.id, real.tier, real.bonus, real.points, real.cost)
    with pytest.raises(InvalidArgumentError, match="game's cards"):
        format_action(Reserve(copy), state)
    with pytest.raises(InvalidArgumentError, match="game's cards"):
        format_action(Buy(copy), state)
    real_noble = noble(2)
    noble_copy = Noble(real_noble.id, real_noble.points, real_noble.requirement)
    with pytest.raises(InvalidArgumentError, match="game's nobles"):
        format_action(Pass(noble_copy), state)


@pytest.mark.parametrize("gems", [None, "x", {"red": 2}, 5])
def test_format_action_refuses_gems_that_are_not_tokens(gems: object) -> None:
    with pytest.raises(InvalidArgumentError, match=r"Take\.gems"):
        format_action(Take(gems), _start())  # type: ignore[arg-type]  # checking it is refused


def test_a_comment_may_hold_a_colon_and_a_name_a_semicolon() -> None:
    header = 'players: 2\nseed: 1\nnames: ["A; B", "C:D"]\n'
    text = header + "; opening: the usual\n\n+RR ; note: two red\n"
    record = parse_record(text)
    assert record.names == ("A; B", "C:D")
    assert record.actions == (Take(toks("2R")),)
    assert parse_record(format_record(record)) == record


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("token_limit=5,7", "token_limit is one number"),
        ("reserve_limit=2,", "must be an integer"),
        ("token_limit=5 token_limit=6", "sets token_limit twice"),
    ],
)
def test_a_rule_setting_with_extra_numbers_is_refused(rules: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_record(f"players: 2\nseed: 1\nrules: {rules}\n")


@pytest.mark.parametrize("names", ["[" * 100_000, "[1" + "0" * 5000 + "]"])
def test_a_names_header_json_cannot_read_is_a_notation_error(names: str) -> None:
    with pytest.raises(NotationError, match="names"):
        parse_record(f"players: 2\nseed: 1\nnames: {names}\n")


@pytest.mark.parametrize(
    ("text", "short"),
    [
        ("take 2 red", "+RR"),
        ("Take 2 Reds", "+RR"),
        ("take red red", "+RR"),
        ("take red blue green", "+BGR"),
        ("take white, blue, green", "+WBG"),
        ("TAKE WHITE BLUE AND GREEN", "+WBG"),
        ("+ red blue green", "+BGR"),
        ("+redbluegreen", "+BGR"),
        ("take diamond sapphire emerald", "+WBG"),
        ("take 2 rubies", "+RR"),
        ("take onyx, ruby, emerald", "+GRK"),
        ("+ w blue g", "+WBG"),
        ("reserve tier 3", "r3d"),
        ("reserve tier 3 deck", "r3d"),
        ("r 3 deck", "r3d"),
        ("reserve tier 3 slot 1", "r31"),
        ("r 2 slot 3", "r23"),
    ],
)
def test_colour_and_place_words_read_like_the_short_form(text: str, short: str) -> None:
    state = _start()
    action = parse_action(text, state)
    assert action == parse_action(short, state)
    assert format_action(action, state) == short


def test_words_work_in_returns_payments_and_nobles() -> None:
    over = with_player(_start(), tokens=toks("2W 2B 2G 2R 1K"))
    assert parse_action("take white blue green - red black", over) == parse_action("+WBG-RK", over)
    assert parse_action("+wbg -red, onyx", over) == parse_action("+WBG-RK", over)
    full = with_player(_start(), tokens=toks("2W 2B 2G 2R 2K"))
    assert parse_action("reserve tier 2 slot 3 - gold", full) == parse_action("r23-Y", full)
    assert parse_action("reserve tier 1 -joker", full) == parse_action("r1d-Y", full)
    rich = with_player(_start(), tokens=toks("3W 2B 2G 2Y"))
    paid = parse_action("buy tier 2 slot 1 = 3 white 2 blue 1 green 1 gold", rich)
    assert paid == parse_action("b21=WWWBBGY", rich)
    assert format_action(paid, rich) == "b21=WWWBBGY"
    assert parse_action("buy tier 2 slot 1", rich) == parse_action("b21", rich)
    held = with_player(_start(), tokens=toks("3W 2B 2G 2R 1Y"), reserved=[card(1), card(7)])
    assert parse_action("buy reserved 2", held) == parse_action("br2", held)
    noble_state = with_player(
        _start(), tokens=toks("3W 2B 2G"), cards=bonus_cards(toks("3W 4R 3K"))
    )
    assert parse_action("b21 noble 5", noble_state) == parse_action("b21n5", noble_state)


@pytest.mark.parametrize(
    ("text", "got"),
    [
        ("+ red blue grean", "'grean'"),
        ("take white, blu, green", "'blu'"),
        ("take 2 rd", "'rd'"),
        ("+wbg -purple", "'purple'"),
        ("take 2", "the end of the text"),
    ],
)
def test_a_misspelt_colour_is_pointed_at_with_the_colours_to_use(text: str, got: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_action(text, _start())
    message = str(caught.value)
    assert "colours are W B G R K (and Y for gold) or their names" in message
    assert message.endswith(f"got {got}")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("reserve tier 4", "a tier 1-3 after 'tier', got '4'"),
        ("buy tier 1", "a slot 1-4 after the tier"),
        ("buy tier 1 slot 5", "a slot 1-4 after 'slot', got '5'"),
        ("buy 1 deck", "a slot 1-4 after the tier, got 'deck'"),
    ],
)
def test_a_place_in_words_that_cannot_be_read_says_what_was_expected(
    text: str, expected: str
) -> None:
    with pytest.raises(NotationError, match=expected):
        parse_action(text, _start())


def test_word_forms_never_change_what_format_action_writes() -> None:
    state = with_player(_start(), tokens=toks("2W 2B 2G 2R 1K 1Y"), reserved=[card(1)])
    texts = [format_action(action, state) for action in legal_actions(state)]
    assert len(set(texts)) == len(texts)
    assert all(len(text) <= 12 and " " not in text for text in texts)
