"""JSON for states, actions, rules and game records: :func:`to_json` and :func:`from_json`.

One module-level cattrs :data:`converter` does the work. The format is
versioned (a ``"format"`` field at the top of states and records) and
documented on the "JSON formats" page of the docs, with a JSON Schema shipped
in the package as ``splendor/schema/splendor.schema.json``.

Loading is strict: a document that is not valid JSON, has a value of the
wrong type, a missing or unknown field, an unknown card, noble, colour or
action type, or an unsupported format version raises one
:class:`SerializationError` listing every problem with its JSON path. A
well-formed state that breaks an invariant of the game (see
:func:`splendor.check_state`), or a record with an action that is illegal at
its turn, raises a :class:`SerializationError` too, naming the broken
invariant or the turn and the reason. Anything :func:`from_json` returns is
safe to play on.

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

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from importlib import resources
from types import GenericAlias, MappingProxyType, NoneType, UnionType
from typing import Any, Final, TypeVar, Union, get_args, get_origin, overload

import attrs
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
    StructureHandlerNotFoundError,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn
from cattrs.preconf.json import JsonConverter, make_converter
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception, transform_error

from splendor import record as _record
from splendor.actions import Action, Buy, Pass, Reserve, ReserveFromDeck, Take
from splendor.components import CARDS_BY_ID, NOBLES_BY_ID, Card, Noble, is_game_card, is_game_noble
from splendor.errors import InvalidArgumentError, InvalidStateError, SplendorError
from splendor.gems import GEMS, Tokens
from splendor.record import GameRecord
from splendor.rules import Rules
from splendor.state import GameState, PlayerState
from splendor.validation import check_state

__all__ = [
    "ACTION_TAGS",
    "FORMAT_VERSION",
    "SerializationError",
    "converter",
    "from_json",
    "json_schema",
    "to_json",
]

_T = TypeVar("_T")

#: The version of the JSON format written in the ``"format"`` field of states
#: and records. Loading accepts exactly this version.
FORMAT_VERSION: Final = 1

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
_FORMAT_FIELD: Final = "format"
_CLASS_BY_TAG: Final = {tag: cls for cls, tag in ACTION_TAGS.items()}
_COLOURS: Final = {gem.value: i for i, gem in enumerate(GEMS)}
_COLOUR_LIST: Final = ", ".join(_COLOURS)


class SerializationError(SplendorError, ValueError):
    """A JSON document cannot be loaded: every problem found, with its JSON path.

    Attributes:
        errors: one message per problem, each ending with ``@`` and the path of
            the value at fault, like ``"unknown card id 91 @ $.board[0][2]"``.

    >>> try:
    ...     from_json('{"type": "buy", "card": 91}', Buy)
    ... except SerializationError as error:
    ...     print(error.errors)
    ('unknown card id 91 (card ids run 1 to 90) @ $.card',)
    """

    errors: tuple[str, ...]

    def __init__(self, what: str, errors: Sequence[str]) -> None:
        self.errors = tuple(errors)
        if len(self.errors) == 1:
            message = f"cannot load {what} from JSON: {self.errors[0]}"
        else:
            listed = "".join(f"\n  - {error}" for error in self.errors)
            message = f"cannot load {what} from JSON, {len(self.errors)} problems:{listed}"
        super().__init__(message)


class _Invalid(ValueError):
    """A value that does not fit its place in the document (shown as is)."""


#: The converter behind :func:`to_json` and :func:`from_json` (a
#: ``cattrs.preconf.json`` converter with extra keys forbidden). Other modules
#: may register hooks on it for their own classes.
converter: Final[JsonConverter] = make_converter(forbid_extra_keys=True)


def _kind(value: object) -> str:
    """How a JSON value looks, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"the number {value!r}"[:60]
    if isinstance(value, str):
        return f"the string {json.dumps(value)[:40]}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return type(value).__name__


def _noted(error: Exception, step: str | int, cls: object) -> Exception:
    if isinstance(step, int):
        error.add_note(IterableValidationNote(f"Structuring @ index {step}", step, cls))
    else:
        error.add_note(AttributeValidationNote(f"Structuring @ attribute {step}", step, cls))
    return error


def _at(error: Exception, *path: str | int) -> Exception:
    """``error`` wrapped so that :func:`cattrs.transform_error` shows it at ``path``."""
    for step in reversed(path):
        _noted(error, step, None)
        if isinstance(step, int):
            error = IterableValidationError("While structuring an array", [error], list)
        else:
            error = ClassValidationError("While structuring an object", [error], dict)
    return error


# Scalars: exactly the JSON type, with no conversion (no "3" for 3, no true for 1).


def _structure_int(value: object, _: object) -> int:
    if type(value) is not int:
        raise _Invalid(f"expected an integer, got {_kind(value)}")
    return value


def _structure_bool(value: object, _: object) -> bool:
    if type(value) is not bool:
        raise _Invalid(f"expected true or false, got {_kind(value)}")
    return value


def _structure_str(value: object, _: object) -> str:
    if type(value) is not str:
        raise _Invalid(f"expected a string, got {_kind(value)}")
    return value


converter.register_structure_hook(int, _structure_int)
converter.register_structure_hook(bool, _structure_bool)
converter.register_structure_hook(str, _structure_str)


# Tokens: an object of colour name to count; colours at 0 are left out.


def _unstructure_tokens(tokens: Tokens) -> dict[str, int]:
    if type(tokens) is not Tokens:
        raise TypeError(f"expected Tokens, got {tokens!r}")
    return {gem.value: n for gem, n in zip(GEMS, tokens.counts, strict=True) if n}


def _structure_tokens(value: object, _: object) -> Tokens:
    if type(value) is not dict:
        raise _Invalid(f'expected an object of token counts like {{"red": 2}}, got {_kind(value)}')
    counts = [0] * 6
    errors: list[Exception] = []
    for key, n in value.items():
        if key not in _COLOURS:
            error = _Invalid(f"unknown colour {key!r} (the colours are {_COLOUR_LIST})")
        elif type(n) is not int or n < 0:
            error = _Invalid(f"a token count must be a non-negative integer, got {_kind(n)}")
        else:
            counts[_COLOURS[key]] = n
            continue
        errors.append(_noted(error, key, int))
    if errors:
        raise ClassValidationError("While structuring Tokens", errors, Tokens)
    return Tokens(*counts)


converter.register_unstructure_hook(Tokens, _unstructure_tokens)
converter.register_structure_hook(Tokens, _structure_tokens)


# Cards and nobles: by id, loaded as the shared instances.


def _structure_card(value: object, _: object) -> Card:
    if type(value) is not int:
        raise _Invalid(f"expected a card id (an integer 1 to 90), got {_kind(value)}")
    card = CARDS_BY_ID.get(value)
    if card is None:
        raise _Invalid(f"unknown card id {value} (card ids run 1 to 90)")
    return card


def _structure_noble(value: object, _: object) -> Noble:
    if type(value) is not int:
        raise _Invalid(f"expected a noble id (an integer 1 to 10), got {_kind(value)}")
    noble = NOBLES_BY_ID.get(value)
    if noble is None:
        raise _Invalid(f"unknown noble id {value} (noble ids run 1 to 10)")
    return noble


def _card_id(card: Card) -> int:
    if not is_game_card(card):
        raise TypeError(f"expected one of the game's cards, got {card!r}")
    return card.id


def _noble_id(noble: Noble) -> int:
    if not is_game_noble(noble):
        raise TypeError(f"expected one of the game's nobles, got {noble!r}")
    return noble.id


converter.register_unstructure_hook(Card, _card_id)
converter.register_structure_hook(Card, _structure_card)
converter.register_unstructure_hook(Noble, _noble_id)
converter.register_structure_hook(Noble, _structure_noble)


# Optional values (X | None) and tuples (JSON arrays).


def _is_optional(cls: Any) -> bool:
    args = get_args(cls)
    return (
        (get_origin(cls) is Union or isinstance(cls, UnionType))
        and len(args) == 2
        and NoneType in args
    )


def _optional_hook(cls: Any) -> Callable[[object, object], object]:
    inner = next(arg for arg in get_args(cls) if arg is not NoneType)
    hook = converter.get_structure_hook(inner)

    def structure(value: object, _: object) -> object:
        return None if value is None else hook(value, inner)

    return structure


def _is_tuple(cls: Any) -> bool:
    return get_origin(cls) is tuple


def _tuple_hook(cls: Any) -> Callable[[object, object], tuple[object, ...]]:
    args = get_args(cls)
    size: int | None = None
    if len(args) == 2 and args[1] is Ellipsis:
        kinds: Callable[[int], Any] = lambda _: args[0]  # noqa: E731
    else:
        size = len(args)
        kinds = args.__getitem__
    hooks: dict[object, Callable[[Any, Any], Any]] = {}

    def structure(value: object, _: object) -> tuple[object, ...]:
        if type(value) is not list and type(value) is not tuple:
            raise _Invalid(f"expected an array, got {_kind(value)}")
        if size is not None and len(value) != size:
            raise _Invalid(f"expected an array of {size} items, got {len(value)}")
        if size is None:
            kind = args[0]
            hook = hooks.get(kind)
            if hook is None:
                hook = hooks[kind] = converter.get_structure_hook(kind)
            try:
                return tuple([hook(item, kind) for item in value])
            except Exception:  # redone item by item below for the paths
                pass
        items: list[object] = []
        errors: list[Exception] = []
        for index, item in enumerate(value):
            kind = kinds(index)
            hook = hooks.get(kind)
            if hook is None:
                hook = hooks[kind] = converter.get_structure_hook(kind)
            try:
                items.append(hook(item, kind))
            except Exception as error:  # collected, then reported with their paths
                errors.append(_noted(error, index, kind))
        if errors:
            raise IterableValidationError("While structuring an array", errors, tuple)
        return tuple(items)

    return structure


converter.register_structure_hook_factory(_is_optional, _optional_hook)
converter.register_structure_hook_factory(_is_tuple, _tuple_hook)


# attrs classes: objects with every field, strictly checked.


def _class_structure(
    cls: type[_T],
    *,
    required: Collection[str] | None = None,
    tag: str | None = None,
    versioned: bool = False,
    after: Callable[[_T], None] | None = None,
) -> Callable[[object, object], _T]:
    """The structure hook of an attrs class.

    Args:
        cls: the class.
        required: the fields that must be present (default: all of them).
        tag: the action tag that may be present (and must then match).
        versioned: whether the object carries the ``"format"`` field.
        after: a check of the built object, raising with paths.
    """
    generated = make_dict_structure_fn(
        cls, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
    )
    needed = (
        tuple(f.name for f in attrs.fields(cls) if f.init)  # type: ignore[arg-type]  # attrs classes only
        if required is None
        else tuple(required)
    )

    def structure(value: object, _: object) -> _T:
        if type(value) is not dict:
            raise _Invalid(f"expected an object ({cls.__name__}), got {_kind(value)}")
        if versioned:
            if _FORMAT_FIELD not in value:
                raise _at(KeyError(_FORMAT_FIELD), _FORMAT_FIELD)
            version = value[_FORMAT_FIELD]
            if type(version) is not int or version != FORMAT_VERSION:
                raise _at(
                    _Invalid(
                        f"unsupported format version {json.dumps(version)[:20]} "
                        f"(this version of splendor-rules reads format {FORMAT_VERSION})"
                    ),
                    _FORMAT_FIELD,
                )
            value = {k: v for k, v in value.items() if k != _FORMAT_FIELD}
        if tag is not None and _TAG_FIELD in value:
            if value[_TAG_FIELD] != tag:
                raise _at(
                    _Invalid(f"expected the action type {tag!r}, got {_kind(value[_TAG_FIELD])}"),
                    _TAG_FIELD,
                )
            value = {k: v for k, v in value.items() if k != _TAG_FIELD}
        missing = [name for name in needed if name not in value]
        errors: list[Exception] = [_noted(KeyError(name), name, cls) for name in missing]
        try:
            built = generated(value, cls)
        except ClassValidationError as error:
            errors += [
                e
                for e in error.exceptions
                if not (isinstance(e, KeyError) and e.args and e.args[0] in missing)
            ]
        except ForbiddenExtraKeysError as error:
            errors.append(error)
        except SplendorError as error:
            errors.append(_Invalid(str(error)))
        if errors:
            raise ClassValidationError(f"While structuring {cls.__name__}", errors, cls)
        if after is not None:
            after(built)
        return built

    return structure


def _check_loaded_state(state: GameState) -> None:
    try:
        check_state(state)
    except InvalidStateError as error:
        raise _Invalid(f"impossible state: {error}") from error


def _check_loaded_record(record: GameRecord) -> None:
    state = record.initial_state()
    for index, action in enumerate(record.actions):
        try:
            state = _record._play(state, action, index)
        except SplendorError as error:
            raise _at(_Invalid(str(error)), "actions", index) from error
    try:
        _record._check_outcome(record, state)
    except SplendorError as error:
        raise _at(_Invalid(str(error)), "result") from error
    record._cache(state)


def _versioned_unstructure(cls: type[object]) -> Callable[[Any], dict[str, object]]:
    generated = make_dict_unstructure_fn(cls, converter)

    def unstructure(value: object) -> dict[str, object]:
        return {_FORMAT_FIELD: FORMAT_VERSION, **generated(value)}

    return unstructure


def _action_unstructure(cls: type[object]) -> Callable[[Any], dict[str, object]]:
    generated = make_dict_unstructure_fn(cls, converter, _cattrs_omit_if_default=True)
    tag = ACTION_TAGS[cls]

    def unstructure(value: object) -> dict[str, object]:
        if cls is ReserveFromDeck:
            tier = value.tier  # type: ignore[attr-defined]  # a ReserveFromDeck
            if type(tier) is not int:
                raise TypeError(f"the tier of a blind reserve must be an int, got {tier!r}")
        return {_TAG_FIELD: tag, **generated(value)}

    return unstructure


converter.register_structure_hook(Rules, _class_structure(Rules))
converter.register_structure_hook(PlayerState, _class_structure(PlayerState))
converter.register_unstructure_hook(GameState, _versioned_unstructure(GameState))
converter.register_structure_hook(
    GameState, _class_structure(GameState, versioned=True, after=_check_loaded_state)
)
for _action in ACTION_TAGS:
    converter.register_unstructure_hook(_action, _action_unstructure(_action))
    converter.register_structure_hook(
        _action, _class_structure(_action, required=(), tag=ACTION_TAGS[_action])
    )
configure_tagged_union(
    Action, converter, tag_generator=ACTION_TAGS.__getitem__, tag_name=_TAG_FIELD
)
_structure_tagged = converter.get_structure_hook(Action)


def _structure_action(value: object, _: object) -> Action:
    if type(value) is not dict:
        raise _Invalid(f"expected an action object, got {_kind(value)}")
    if _TAG_FIELD not in value:
        raise _at(KeyError(_TAG_FIELD), _TAG_FIELD)
    tag = value[_TAG_FIELD]
    if type(tag) is not str or tag not in _CLASS_BY_TAG:
        raise _at(
            _Invalid(
                f"unknown action type {json.dumps(tag)[:30]} "
                f"(the types are {', '.join(_CLASS_BY_TAG)})"
            ),
            _TAG_FIELD,
        )
    action: Action = _structure_tagged(value, Action)
    return action


converter.register_structure_hook(Action, _structure_action)
converter.register_unstructure_hook(GameRecord, _versioned_unstructure(GameRecord))
converter.register_structure_hook(
    GameRecord,
    _class_structure(
        GameRecord,
        required=("players", "seed", "rules", "actions"),
        versioned=True,
        after=_check_loaded_record,
    ),
)


def to_json(value: object, *, indent: int | None = None) -> str:
    """Write a value as JSON: a state, an action, rules, a game record.

    Cards and nobles are written as their ids, tokens as an object of the
    colours held (``{"red": 2, "gold": 1}``, colours at 0 left out). States
    and records start with ``"format": 1``; actions with their ``"type"``.

    Args:
        value: a :class:`~splendor.GameState`, any action,
            :class:`~splendor.Rules`, a :class:`~splendor.record.GameRecord`,
            or another value the :data:`converter` knows.
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
        data = converter.unstructure(value)
        if indent is None:
            return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
        return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as error:
        raise InvalidArgumentError(
            f"cannot write a {type(value).__name__} as JSON: {error}"
        ) from error


def _object_without_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise _Invalid(f"duplicate key {json.dumps(key)[:40]} in an object")
        result[key] = value
    return result


def _no_constant(name: str) -> object:
    raise _Invalid(f"{name} is not valid JSON")


@overload
def from_json(text: str | bytes | bytearray, cls: UnionType) -> Action: ...
@overload
def from_json(text: str | bytes | bytearray, cls: type[_T]) -> _T: ...
def from_json(text: str | bytes | bytearray, cls: type[_T] | UnionType) -> _T | Action:
    """Load a value from JSON written by :func:`to_json`, checking everything.

    A state is checked with :func:`splendor.check_state`, a record is replayed
    action by action; a concrete action type (``Take``...) only accepts that
    type of action, while ``Action`` accepts any.

    Args:
        text: the JSON document (``bytes`` are decoded as UTF-8, -16 or -32).
        cls: what to load: :class:`~splendor.GameState`, ``Action`` or one
            action type, :class:`~splendor.Rules`,
            :class:`~splendor.record.GameRecord`, or another class the
            :data:`converter` knows.

    Returns:
        The value, of type ``cls``.

    Raises:
        SerializationError: for any problem with the document (malformed JSON,
            a wrong type, a missing or unknown field, an unknown id, colour or
            action type, an unsupported format version, an impossible state,
            an illegal action in a record), listing every problem found with
            its JSON path. The original exception is chained as ``__cause__``.
        InvalidArgumentError: when ``text`` is not text or ``cls`` is not a
            type that can be loaded.

    >>> from splendor import Action, Pass
    >>> from_json('{"type": "pass"}', Action)
    Pass(noble=None)
    >>> from_json('{"type": "pass", "noble": 11}', Action)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    splendor.serialization.SerializationError: cannot load Action from JSON: unknown noble id 11 ...
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
    try:
        data = json.loads(
            text, object_pairs_hook=_object_without_duplicates, parse_constant=_no_constant
        )
    except (ValueError, RecursionError) as error:
        raise SerializationError(what, [f"malformed JSON: {error} @ $"]) from error
    try:
        value = converter.structure(data, target)
    except StructureHandlerNotFoundError as error:
        raise InvalidArgumentError(f"cannot load {what} from JSON: {error}") from error
    except Exception as error:  # every problem of the document, reported with its path
        raise SerializationError(what, transform_error(error, "$", _describe)) from error
    if only is not None and type(value) is not only:
        wanted, got = ACTION_TAGS[only], ACTION_TAGS[type(value)]
        raise SerializationError(
            what, [f"expected the action type {wanted!r}, got {got!r} @ $.type"]
        )
    if target is PlayerState:
        problem = _player_problem(value)
        if problem is not None:
            raise SerializationError(what, [f"impossible player: {problem} @ $"])
    result: _T | Action = value
    return result


def _player_problem(player: PlayerState) -> str | None:
    """What makes a loaded player impossible under any rules, or ``None``.

    The checks of :func:`splendor.check_state` on one player that do not
    depend on the rules or the other players: a blind flag per reserved card,
    no card or noble twice, bonuses and points matching the cards and nobles,
    and each noble met by the bonuses.
    """
    if len(player.reserved_blind) != len(player.reserved):
        return (
            f"{len(player.reserved_blind)} reserved_blind flag(s) for "
            f"{len(player.reserved)} reserved card(s)"
        )
    held = (*player.cards, *player.reserved)
    if len(set(held)) != len(held):
        return "a card is held twice"
    if len(set(player.nobles)) != len(player.nobles):
        return "a noble is held twice"
    counts = [0] * 6
    for card in player.cards:
        counts[_COLOURS[card.bonus.value]] += 1
    bonuses = Tokens(*counts)
    if player.bonuses != bonuses:
        return f"the bonuses are {player.bonuses} but the purchased cards give {bonuses}"
    points = sum(card.points for card in player.cards) + sum(n.points for n in player.nobles)
    if player.points != points:
        return f"the points are {player.points} but the cards and nobles are worth {points}"
    for noble in player.nobles:
        if not noble.requirement <= player.bonuses:
            return f"noble N{noble.id} is held but the bonuses {player.bonuses} do not meet it"
    return None


def json_schema() -> dict[str, object]:
    """The JSON Schema (draft 2020-12) of the format, shipped with the package.

    Its ``$defs`` hold one schema per kind of document (``state``, ``record``,
    ``action``, ``rules``...); the root accepts a state, a record or an
    action. A schema checks the shape only: :func:`from_json` checks more.

    Returns:
        The schema, freshly parsed (the caller may change it).

    >>> schema = json_schema()
    >>> sorted(schema["$defs"])[:4]
    ['action', 'buy', 'cardId', 'count']
    """
    path = resources.files("splendor").joinpath("schema", "splendor.schema.json")
    schema: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def _describe(error: BaseException, cls: type | None) -> str:
    """One problem, in words, for :func:`cattrs.transform_error`."""
    if isinstance(error, _Invalid | SplendorError):
        return str(error)
    if isinstance(error, KeyError):
        return "required field missing"
    if isinstance(error, ForbiddenExtraKeysError):
        return f"unknown field(s) {', '.join(repr(k) for k in sorted(error.extra_fields))}"
    return format_exception(error, cls)
