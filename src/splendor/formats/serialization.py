"""JSON for states, views, actions, rules and game records: :func:`to_json` and :func:`from_json`.

The format is versioned (a ``"format"`` field at the top of states, views and
records) and documented on the "JSON formats" page of the docs, with a JSON
Schema shipped in the package (:func:`~splendor.schema.json_schema`).

Loading is strict: a document that is not valid JSON, has a value of the
wrong type, a missing or unknown field, an unknown card, noble, colour or
action type, an integer out of range, or an unsupported format version
raises one :class:`~splendor.SerializationError` listing the problems with their JSON
paths (at most :data:`MAX_PROBLEMS` of them: loading stops there). A
well-formed state that breaks an invariant of the game (see
:func:`splendor.check_state`), a view that no state shows, or a record with
an action that is illegal at its turn, raises a :class:`~splendor.SerializationError`
too, naming the broken invariant or the turn and the reason. Anything
:func:`from_json` returns is safe to play on. Documents longer than
:data:`MAX_DOCUMENT_SIZE` characters are refused before they are parsed.

:func:`make_converter` builds a cattrs converter with every hook registered,
for code that wants cattrs' own API (``converter.unstructure(state)``);
:func:`to_json` and :func:`from_json` use one such converter of their own,
built on first use. Building a converter changes no other converter.

The game's own hooks and the checks of loaded values are here (about 500
lines with their docstrings); the generic strict hooks are in a module of
their own.

>>> import splendor
>>> state = splendor.new_game(2, seed=1)
>>> text = to_json(state)
>>> text[:60]
'{"format":1,"rules":{"gems_by_players":[4,5,7],"gold_by_play'
>>> from_json(text, splendor.GameState) == state
True
>>> to_json(splendor.Take(splendor.Tokens(red=1, blue=1, green=1)))
'{"type":"take","gems":{"blue":1,"green":1,"red":1}}'
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from types import GenericAlias, MappingProxyType, UnionType
from typing import Any, Final, TypeVar, overload

import attrs
from cattrs.errors import ClassValidationError, StructureHandlerNotFoundError
from cattrs.gen import make_dict_unstructure_fn
from cattrs.preconf.json import JsonConverter
from cattrs.preconf.json import make_converter as _make_json_converter
from cattrs.strategies import configure_tagged_union
from cattrs.v import transform_error

from splendor.core.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.core.components import (
    CARDS_BY_ID,
    NOBLES_BY_ID,
    Card,
    Noble,
    is_game_card,
    is_game_noble,
)
from splendor.core.gems import GEMS, MAX_COUNT, Gem, Tokens
from splendor.core.messages import short_repr
from splendor.core.rules import Rules
from splendor.core.state import GameState, PlayerState
from splendor.core.validation import check_player, check_state
from splendor.core.views import PlayerView, PublicPlayer, check_view
from splendor.errors import (
    InvalidArgumentError,
    InvalidStateError,
    SerializationError,
    SplendorError,
)
from splendor.formats import _strict_converter as _strict
from splendor.formats._replay import play_turn
from splendor.formats._strict_converter import (
    Invalid,
    at,
    kind,
    noted,
    number,
    shown,
)
from splendor.formats.record import Annotation, Forfeit, GameRecord
from splendor.formats.strict_json import MalformedJsonError, read_json
from splendor.schema import FORMAT_VERSION, RECORD_FORMAT_VERSION, RECORD_FORMATS

__all__ = [
    "ACTION_TAGS",
    "MAX_DOCUMENT_SIZE",
    "MAX_INTEGER",
    "MAX_PROBLEMS",
    "SerializationError",
    "from_json",
    "make_converter",
    "to_json",
]

_T = TypeVar("_T")

#: The most problems a :class:`~splendor.SerializationError` lists: loading
#: stops at the next one.
MAX_PROBLEMS: Final = _strict.MAX_PROBLEMS
#: The largest magnitude of an integer in a document: ``2**63 - 1``.
MAX_INTEGER: Final = _strict.MAX_INTEGER

#: The longest document :func:`from_json` reads, in characters (or bytes):
#: 64 MiB, about 20 times the record of the longest game the engine can play.
MAX_DOCUMENT_SIZE: Final = 64 * 1024 * 1024

#: The stable tag of each action type, written in the action's ``"type"`` field.
ACTION_TAGS: Final[Mapping[type, str]] = MappingProxyType(
    {
        Take: "take",
        Reserve: "reserve",
        ReserveFromDeck: "reserve_deck",
        Buy: "buy",
        Pass: "pass",
    }
)
_TAG_FIELD: Final = "type"
_VERSION: Final = ("format", FORMAT_VERSION)
_CLASS_BY_TAG: Final = {tag: cls for cls, tag in ACTION_TAGS.items()}
_GEM_BY_NAME: Final = {gem.value: gem for gem in GEMS}
_COLOUR_LIST: Final = ", ".join(_GEM_BY_NAME)


# Tokens: an object of colour name to count; colours at 0 are left out.


def _unstructure_tokens(tokens: Tokens) -> dict[str, int]:
    if type(tokens) is not Tokens:
        raise TypeError(f"expected Tokens, got {tokens!r}")
    return {gem.value: n for gem, n in zip(GEMS, tokens.counts, strict=True) if n}


def _structure_tokens(value: object, _: object) -> Tokens:
    if (
        type(value) is dict
        and value.keys() <= _GEM_BY_NAME.keys()
        and all(type(n) is int and 0 <= n <= MAX_COUNT for n in value.values())
    ):
        return Tokens(**value)  # the usual case, at once
    if type(value) is not dict:
        raise Invalid(f'expected an object of token counts like {{"red": 2}}, got {kind(value)}')
    counts = dict.fromkeys(GEMS, 0)
    errors: list[Exception] = []
    for key, n in value.items():
        gem = _GEM_BY_NAME.get(key)
        if gem is None:
            error = Invalid(f"unknown colour {key[:30]!r} (the colours are {_COLOUR_LIST})")
        elif type(n) is not int or not 0 <= n <= MAX_COUNT:
            error = Invalid(
                f"a token count must be an integer from 0 to {MAX_COUNT:,}, got {kind(n)}"
                if type(n) is int and n > 0
                else f"a token count must be a non-negative integer, got {kind(n)}"
            )
        else:
            counts[gem] = n
            continue
        errors.append(noted(error, key, int))
        if not _strict.found(error):
            errors.append(noted(Invalid(_strict.STOPPED), key, int))
            break
    if errors:
        raise _strict.group(ClassValidationError, "While structuring Tokens", errors, Tokens)
    return Tokens(*counts.values())


def _structure_gem(value: object, _: object) -> Gem:
    gem = _GEM_BY_NAME.get(value) if type(value) is str else None
    if gem is None:
        raise Invalid(f"expected a colour ({_COLOUR_LIST}), got {kind(value)}")
    return gem


# Cards and nobles: by id, loaded as the shared instances.


def _by_id(what: str, table: Mapping[int, _T]) -> Callable[[object, object], _T]:
    """The structure hook of a game component written as its id in ``table``."""
    ids = f"{what} ids run 1 to {len(table)}"

    def structure(value: object, _: object) -> _T:
        if type(value) is not int:
            raise Invalid(f"expected a {what} id (an integer 1 to {len(table)}), got {kind(value)}")
        found = table.get(value)
        if found is None:
            raise Invalid(f"unknown {what} id {number(value)} ({ids})")
        return found

    return structure


_structure_card: Final = _by_id("card", CARDS_BY_ID)
_structure_noble: Final = _by_id("noble", NOBLES_BY_ID)


def _card_id(card: Card) -> int:
    if not is_game_card(card):
        raise TypeError(f"expected one of the game's cards, got {card!r}")
    return card.id


def _noble_id(noble: Noble) -> int:
    if not is_game_noble(noble):
        raise TypeError(f"expected one of the game's nobles, got {noble!r}")
    return noble.id


# Checks of loaded values that the shape alone does not give.


def _check_loaded_state(state: GameState) -> None:
    try:
        check_state(state)
    except InvalidStateError as error:
        raise Invalid(f"impossible state: {error}") from error


def _check_loaded_view(loaded: PlayerView) -> None:
    try:
        check_view(loaded)
    except SplendorError as error:
        raise Invalid(str(error)) from error


def _check_loaded_record(record: GameRecord) -> None:
    try:
        record.final_state()  # replayed once and remembered
    except SplendorError as error:
        # Replayed again, only on failure, to find the action at fault.
        state = record.initial_state()
        for index, action in enumerate(record.actions):
            try:
                state = play_turn(state, action, index)
            except SplendorError as failure:
                raise at(Invalid(str(failure)), "actions", index) from failure
        raise at(Invalid(str(error)), "result") from error


# Game records. Format 2 writes ``result`` as an object of the winners and the
# forfeit (if any); format 1, still read, wrote the winners as a list. The
# documents are read into these classes first, so that every problem has
# its path, and then made into a GameRecord.


@attrs.frozen
class _Result:
    """A record's ``result`` in format 2."""

    winners: tuple[int, ...]
    forfeit: Forfeit | None = None


@attrs.frozen
class _RecordV2:
    """A record document of format 2 (without its ``format`` field)."""

    players: int
    seed: int
    rules: Rules
    actions: tuple[Action, ...]
    names: tuple[str, ...] | None = None
    result: _Result | None = None
    annotations: tuple[Annotation | None, ...] | None = None


@attrs.frozen
class _RecordV1:
    """A record document of format 1 (without its ``format`` field)."""

    players: int
    seed: int
    rules: Rules
    actions: tuple[Action, ...]
    names: tuple[str, ...] | None = None
    result: tuple[int, ...] | None = None


def _record_document(record: GameRecord) -> _RecordV2:
    if type(record) is not GameRecord:
        raise TypeError(f"expected a GameRecord, got {record!r}")
    result = None if record.result is None else _Result(record.result, record.forfeit)
    return _RecordV2(
        record.players,
        record.seed,
        record.rules,
        record.actions,
        record.names,
        result,
        record.annotations,
    )


def _built_record(document: _RecordV1 | _RecordV2) -> GameRecord:
    """The record of a loaded document, checked as GameRecord checks it, then replayed."""
    annotations = None
    if isinstance(document, _RecordV2):
        result = None if document.result is None else document.result.winners
        forfeit = None if document.result is None else document.result.forfeit
        annotations = document.annotations
    else:
        result, forfeit = document.result, None
    try:
        record = GameRecord(
            document.players,
            document.seed,
            document.rules,
            document.actions,
            document.names,
            result,
            forfeit,
        )
    except SplendorError as error:
        raise at(Invalid(str(error)), "result") from error
    if annotations is not None:
        try:
            record = record.annotated(annotations)
        except SplendorError as error:
            raise at(Invalid(str(error)), "annotations") from error
    _check_loaded_record(record)
    return record


def _record_structure(converter: JsonConverter) -> Callable[[object, object], GameRecord]:
    """The structure hook of a record: format 1 or 2, by its ``format`` field."""
    required = ("players", "seed", "rules", "actions")
    readers: dict[int, Callable[[object, object], _RecordV1 | _RecordV2]] = {
        1: _strict.class_structure(converter, _RecordV1, required=required),
        2: _strict.class_structure(converter, _RecordV2, required=required),
    }
    known = " and ".join(map(str, RECORD_FORMATS))

    def structure(value: object, _: object) -> GameRecord:
        if type(value) is not dict:
            raise Invalid(f"expected an object (GameRecord), got {kind(value)}")
        if "format" not in value:
            raise at(KeyError("format"), "format")
        given = value["format"]
        reader = readers.get(given) if type(given) is int else None
        if reader is None:
            raise at(
                Invalid(
                    f"unsupported format version {shown(given)} of a game record "
                    f"(this version of splendor-rules reads record formats {known})"
                ),
                "format",
            )
        document = reader({k: v for k, v in value.items() if k != "format"}, None)
        return _built_record(document)

    return structure


def make_converter() -> JsonConverter:
    """A new cattrs converter for the game's JSON, with every hook registered.

    It is a ``cattrs.preconf.json`` converter, strict as :func:`from_json` is
    (extra keys forbidden, no type conversion), and knows
    :class:`~splendor.GameState`, :class:`~splendor.PlayerState`,
    :class:`~splendor.core.views.PlayerView`, the actions (``Action`` as a tagged
    union), :class:`~splendor.Rules`, :class:`~splendor.formats.record.GameRecord`,
    :class:`~splendor.Tokens`, cards, nobles and colours. Each call builds a
    fresh converter: changing it changes no other.

    It checks what cattrs checks as it builds a value; :func:`from_json`
    does more (the size of the document, the action type asked for, a count
    of problems) and is the way to load untrusted text.

    >>> converter = make_converter()
    >>> converter.unstructure(Tokens(red=2, gold=1))
    {'red': 2, 'gold': 1}
    >>> converter.structure({"type": "pass"}, Action)
    Pass(noble=None)
    """
    converter = _make_json_converter(forbid_extra_keys=True)
    _strict.install(converter)
    converter.register_unstructure_hook(Tokens, _unstructure_tokens)
    converter.register_structure_hook(Tokens, _structure_tokens)
    converter.register_structure_hook(Gem, _structure_gem)
    converter.register_unstructure_hook(Card, _card_id)
    converter.register_structure_hook(Card, _structure_card)
    converter.register_unstructure_hook(Noble, _noble_id)
    converter.register_structure_hook(Noble, _structure_noble)

    def versioned(cls: type[object]) -> None:
        converter.register_unstructure_hook(
            cls, _strict.tagged_unstructure(converter, cls, *_VERSION, omit_defaults=False)
        )

    converter.register_structure_hook(Rules, _strict.class_structure(converter, Rules))
    converter.register_structure_hook(PlayerState, _strict.class_structure(converter, PlayerState))
    versioned(GameState)
    converter.register_structure_hook(
        GameState,
        _strict.class_structure(converter, GameState, version=_VERSION, after=_check_loaded_state),
    )
    converter.register_structure_hook(
        PublicPlayer, _strict.class_structure(converter, PublicPlayer)
    )
    versioned(PlayerView)
    converter.register_structure_hook(
        PlayerView,
        _strict.class_structure(converter, PlayerView, version=_VERSION, after=_check_loaded_view),
    )
    for cls, tag in ACTION_TAGS.items():
        action_unstructure = _strict.tagged_unstructure(
            converter, cls, _TAG_FIELD, tag, omit_defaults=True
        )
        converter.register_unstructure_hook(cls, _checked_tier(cls, action_unstructure))
        converter.register_structure_hook(
            cls, _strict.class_structure(converter, cls, required=(), tag=(_TAG_FIELD, tag))
        )
    configure_tagged_union(
        Action, converter, tag_generator=ACTION_TAGS.__getitem__, tag_name=_TAG_FIELD
    )
    converter.register_structure_hook(
        Action, _action_structure(converter.get_structure_hook(Action))
    )
    converter.register_structure_hook(
        Forfeit, _strict.class_structure(converter, Forfeit, required=("seat", "reason"))
    )
    result_structure = _strict.class_structure(converter, _Result, required=("winners",))

    def structure_result(value: object, _: object) -> _Result:
        if type(value) is not dict:
            raise Invalid(
                "expected an object of the winners and the forfeit (record format 2), "
                f"got {kind(value)}"
            )
        return result_structure(value, _Result)

    converter.register_structure_hook(_Result, structure_result)
    converter.register_unstructure_hook(
        _Result, make_dict_unstructure_fn(_Result, converter, _cattrs_omit_if_default=True)
    )
    record_unstructure = _strict.tagged_unstructure(
        converter, _RecordV2, "format", RECORD_FORMAT_VERSION, omit_defaults=False
    )
    converter.register_structure_hook(
        Annotation,
        _strict.class_structure(
            converter, Annotation, required=("win_before", "win_after", "best")
        ),
    )

    def unstructure_record(record: GameRecord) -> dict[str, object]:
        document = record_unstructure(_record_document(record))
        if document.get("annotations") is None:
            # Written only by an analysis: a record without them is written as before.
            document.pop("annotations", None)
        return document

    converter.register_unstructure_hook(GameRecord, unstructure_record)
    converter.register_structure_hook(GameRecord, _record_structure(converter))
    return converter


def _checked_tier(
    cls: type[object], unstructure: Callable[[Any], dict[str, object]]
) -> Callable[[Any], dict[str, object]]:
    """``unstructure``, refusing a blind reserve whose tier is not an ``int``."""
    if cls is not ReserveFromDeck:
        return unstructure

    def checked(action: ReserveFromDeck) -> dict[str, object]:
        if type(action.tier) is not int:
            raise TypeError(f"the tier of a blind reserve must be an int, got {action.tier!r}")
        return unstructure(action)

    return checked


def _action_structure(
    tagged: Callable[[Any, Any], Action],
) -> Callable[[object, object], Action]:
    """The tagged union's hook, with clear errors for a missing or unknown tag."""

    def structure(value: object, _: object) -> Action:
        if type(value) is not dict:
            raise Invalid(f"expected an action object, got {kind(value)}")
        if _TAG_FIELD not in value:
            raise at(KeyError(_TAG_FIELD), _TAG_FIELD)
        tag = value[_TAG_FIELD]
        if type(tag) is not str or tag not in _CLASS_BY_TAG:
            raise at(
                Invalid(
                    f"unknown action type {shown(tag)} (the types are {', '.join(_CLASS_BY_TAG)})"
                ),
                _TAG_FIELD,
            )
        return tagged(value, Action)

    return structure


@functools.cache
def _converter() -> JsonConverter:
    """The converter of :func:`to_json` and :func:`from_json`, built on first use."""
    return make_converter()


def to_json(value: object, *, indent: int | None = None) -> str:
    """Write a value as JSON: a state, a view, an action, rules, a game record.

    Cards and nobles are written as their ids, tokens as an object of the
    colours held (``{"red": 2, "gold": 1}``, colours at 0 left out). States
    and views start with ``"format": 1`` (:data:`~splendor.schema.FORMAT_VERSION`),
    records with ``"format": 2`` (:data:`~splendor.schema.RECORD_FORMAT_VERSION`);
    actions with their ``"type"``.

    Args:
        value: a :class:`~splendor.GameState`, a
            :class:`~splendor.core.views.PlayerView`, any action,
            :class:`~splendor.Rules`, a :class:`~splendor.formats.record.GameRecord`,
            or another value that :func:`make_converter`'s converters know.
        indent: ``None`` (the default) for compact one-line JSON; a number of
            spaces to indent by for pretty-printed JSON.

    Returns:
        The JSON text.

    Raises:
        InvalidArgumentError: for a value that cannot be written as JSON.

    >>> print(to_json(Rules(), indent=1))
    {
     "gems_by_players": [
      4,
    ...
     "reserve_limit": 3
    }
    """
    try:
        data = _converter().unstructure(value)
        if indent is None:
            return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise InvalidArgumentError(
            f"cannot write a {type(value).__name__} as JSON: {error}"
        ) from error


@overload
def from_json(text: str | bytes | bytearray, cls: UnionType) -> Action: ...
@overload
def from_json(text: str | bytes | bytearray, cls: type[_T]) -> _T: ...
def from_json(text: str | bytes | bytearray, cls: type[_T] | UnionType) -> _T | Action:
    """Load a value from JSON written by :func:`to_json`, checking everything.

    A state is checked with :func:`splendor.check_state`, a view with
    :func:`splendor.core.views.check_view`, a player with
    :func:`splendor.core.validation.check_player`, a record is replayed action by
    action; a concrete action type (``Take``...) only accepts that type of
    action, while ``Action`` accepts any. Integers must lie within
    ``-(2**63 - 1)`` to ``2**63 - 1`` (:data:`MAX_INTEGER`); the checks of the
    values then narrow that further.

    Args:
        text: the JSON document (``bytes`` are decoded as UTF-8, -16 or -32),
            at most :data:`MAX_DOCUMENT_SIZE` long.
        cls: what to load: :class:`~splendor.GameState`,
            :class:`~splendor.core.views.PlayerView`, ``Action`` or one action
            type, :class:`~splendor.Rules`,
            :class:`~splendor.formats.record.GameRecord`, :class:`~splendor.Gem`,
            :class:`~splendor.Tokens`, or another class that
            :func:`make_converter`'s converters know.

    Returns:
        The value, of type ``cls``.

    Raises:
        SerializationError: for any problem with the document (too long,
            malformed JSON, a wrong type, a missing or unknown field, an
            unknown id, colour or action type, an integer out of range, an
            unsupported format version, an impossible state or view, an
            illegal action in a record), listing the problems found with
            their JSON paths (at most :data:`MAX_PROBLEMS`). The original
            exception is chained as ``__cause__``.
        InvalidArgumentError: when ``text`` is not text or ``cls`` is not a
            type that can be loaded.

    >>> from splendor import Action, Gem
    >>> from_json('{"type": "pass"}', Action)
    Pass(noble=None)
    >>> from_json('"red"', Gem)
    <Gem.RED: 'red'>
    >>> from_json('{"type": "pass", "noble": 11}', Action)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.errors.SerializationError: cannot load Action from JSON: unknown noble id 11 ...
    """
    if not isinstance(text, str | bytes | bytearray):
        raise InvalidArgumentError(f"expected JSON text (str or bytes), got {type(text).__name__}")
    only: type | None = None  # the one action type accepted, if any
    if isinstance(cls, UnionType):
        if cls != Action:
            raise InvalidArgumentError(f"cannot load {cls} from JSON: the only union is Action")
        what = "Action"
        target: Any = Action
    elif not isinstance(cls, type | GenericAlias):
        raise InvalidArgumentError(f"expected a class to load, got {cls!r}")
    elif isinstance(cls, type) and cls in ACTION_TAGS:
        what = cls.__name__
        only = cls
        target = Action
    else:
        what = getattr(cls, "__name__", repr(cls))
        target = cls
    if len(text) > MAX_DOCUMENT_SIZE:
        raise SerializationError(
            what,
            [f"the document is {len(text):,} long, more than the {MAX_DOCUMENT_SIZE:,} read @ $"],
        )
    try:
        data = read_json(text)
    except MalformedJsonError as error:
        raise SerializationError(what, [f"malformed JSON: {_short(error)} @ $"]) from error
    converter = _converter()
    try:
        with _strict.counting():
            value = converter.structure(data, target)
    except StructureHandlerNotFoundError as error:
        raise InvalidArgumentError(f"cannot load {what} from JSON: {error}") from error
    except Exception as error:  # every problem of the document, reported with its path
        problems = transform_error(error, "$", _strict.describe)
        stopped = [line for line in problems if line.startswith(_strict.STOPPED)]
        problems = [line for line in problems if not line.startswith(_strict.STOPPED)]
        if stopped:  # loading stopped early: more problems were not looked for
            problems[MAX_PROBLEMS:] = [f"{_strict.STOPPED} @ $"]
        elif len(problems) > MAX_PROBLEMS:
            problems[MAX_PROBLEMS:] = [f"and {len(problems) - MAX_PROBLEMS} more @ $"]
        raise SerializationError(what, problems) from error
    if target is PlayerState:
        try:
            check_player(value)
        except InvalidStateError as error:
            raise SerializationError(what, [f"impossible player: {error} @ $"]) from error
    if only is not None and type(value) is not only:
        wanted, got = ACTION_TAGS[only], ACTION_TAGS[type(value)]
        raise SerializationError(
            what, [f"expected the action type {wanted!r}, got {got!r} @ $.type"]
        )
    result: _T | Action = value
    return result


def _short(error: BaseException) -> str:
    """The message of ``error``, cut to about 200 characters."""
    return short_repr(str(error), 203, write=str)
