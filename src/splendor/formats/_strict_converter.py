"""Strict cattrs hooks, independent of the game: the machinery of the JSON formats.

A strict converter takes exactly the JSON type asked for (no ``"3"`` for 3,
no ``true`` for 1), reads ``X | None`` and tuples (fixed or variable length)
item by item, and reads an attrs class as an object with every field,
refusing unknown ones. A value that does not fit raises :class:`Invalid`,
which cattrs collects with its path; :func:`describe` turns each collected
error into one line for :func:`cattrs.transform_error`.

Every name here is shared by :mod:`splendor.formats.serialization` only; none is part
of the public API.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from types import NoneType, UnionType
from typing import Any, Final, TypeVar, Union, get_args, get_origin

import attrs
from cattrs import Converter
from cattrs.errors import (
    AttributeValidationNote,
    ClassValidationError,
    ForbiddenExtraKeysError,
    IterableValidationError,
    IterableValidationNote,
)
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn
from cattrs.v import format_exception

from splendor.core.checks import LARGEST
from splendor.core.messages import short_repr
from splendor.errors import SplendorError

__all__ = [
    "MAX_INTEGER",
    "MAX_PROBLEMS",
    "STOPPED",
    "Invalid",
    "at",
    "class_structure",
    "counting",
    "describe",
    "found",
    "group",
    "install",
    "kind",
    "noted",
    "number",
    "quoted",
    "shown",
    "tagged_unstructure",
]

_T = TypeVar("_T")

#: How many problems one document reports at most; loading stops at the next one.
MAX_PROBLEMS: Final = 100
#: The largest magnitude of an integer read (a signed 64-bit integer's).
MAX_INTEGER: Final = LARGEST


class Invalid(ValueError):
    """A value that does not fit its place in the document (its message is shown as is)."""


#: The problem put last in a list cut short at :data:`MAX_PROBLEMS`.
STOPPED: Final = f"more problems follow: loading stopped after {MAX_PROBLEMS}"

# The number of problems found so far in the document being loaded (one
# counter per call of ``counting``, so loads in other threads do not mix).
_found: ContextVar[list[int] | None] = ContextVar("_found", default=None)


@contextmanager
def counting() -> Iterator[None]:
    """Count the problems found while loading one document (see :func:`found`)."""
    token = _found.set([0])
    try:
        yield
    finally:
        _found.reset(token)


def found(error: BaseException) -> bool:
    """Count a problem just collected; ``False`` once there are enough of them.

    Only leaf problems count (not the groups that carry them up), so the
    count is about the number of lines the document's error will have. A
    hook that gets ``False`` stops looking at the rest of its value, so
    that a document with millions of bad values costs no more than one
    with a hundred.
    """
    count = _found.get()
    if count is None:
        return True
    if not isinstance(error, BaseExceptionGroup):
        count[0] += 1
    return count[0] < MAX_PROBLEMS


def number(value: int) -> str:
    """An integer as text, or a few words for one too long to show (see ``short_repr``)."""
    return short_repr(value)


def quoted(text: str, *, limit: int = 32) -> str:
    """A string as JSON, cut to ``limit`` characters (``...`` marks a cut)."""
    return short_repr(text, limit, write=json.dumps)


def shown(value: object) -> str:
    """A JSON value as JSON if it is a string or an integer (cut short), else its kind."""
    if type(value) is str:
        return quoted(value)
    if type(value) is int:
        return number(value)
    return kind(value)


def kind(value: object) -> str:
    """How a JSON value looks, in a few words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = number(value)
        # An int too long to show is described in words, which need no "the number".
        return f"the number {text}" if text.lstrip("-").isdigit() else text
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {quoted(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    return type(value).__name__


def noted(error: Exception, step: str | int, cls: object) -> Exception:
    """``error`` with the note cattrs reads to place it at ``step`` (a key or an index)."""
    if isinstance(step, int):
        error.add_note(IterableValidationNote(f"Structuring @ index {step}", step, cls))
    else:
        error.add_note(AttributeValidationNote(f"Structuring @ attribute {step}", step, cls))
    return error


def group(kind: Any, message: str, errors: Sequence[Exception], cls: object) -> Exception:
    """A cattrs ``kind`` of validation error (an exception group) holding ``errors``.

    ``kind`` is typed ``Any`` because the exception group's constructor
    that type checkers see (two arguments) is not the one cattrs defines
    (three: the message, the errors and the class).
    """
    made: Exception = kind(message, errors, cls)
    return made


def at(error: Exception, *path: str | int) -> Exception:
    """``error`` wrapped so that :func:`cattrs.transform_error` shows it at ``path``."""
    for step in reversed(path):
        noted(error, step, None)
        if isinstance(step, int):
            error = group(IterableValidationError, "While structuring an array", [error], list)
        else:
            error = group(ClassValidationError, "While structuring an object", [error], dict)
    return error


def _structure_int(value: object, _: object) -> int:
    if type(value) is not int:
        raise Invalid(f"expected an integer, got {kind(value)}")
    if not -MAX_INTEGER <= value <= MAX_INTEGER:
        raise Invalid(f"{kind(value)} is out of range (-(2**63 - 1) to 2**63 - 1)")
    return value


def _structure_bool(value: object, _: object) -> bool:
    if type(value) is not bool:
        raise Invalid(f"expected true or false, got {kind(value)}")
    return value


def _structure_str(value: object, _: object) -> str:
    if type(value) is not str:
        raise Invalid(f"expected a string, got {kind(value)}")
    return value


def _is_optional(cls: Any) -> bool:
    args = get_args(cls)
    return (
        (get_origin(cls) is Union or isinstance(cls, UnionType))
        and len(args) == 2
        and NoneType in args
    )


def _is_tuple(cls: Any) -> bool:
    return get_origin(cls) is tuple


def install(converter: Converter) -> None:
    """Register the strict hooks for ``int``, ``bool``, ``str``, ``X | None`` and tuples.

    Args:
        converter: the converter to register on.
    """
    converter.register_structure_hook(int, _structure_int)
    converter.register_structure_hook(bool, _structure_bool)
    converter.register_structure_hook(str, _structure_str)

    def optional_hook(cls: Any) -> Callable[[object, object], object]:
        inner = next(arg for arg in get_args(cls) if arg is not NoneType)
        hook = converter.get_structure_hook(inner)

        def structure(value: object, _: object) -> object:
            return None if value is None else hook(value, inner)

        return structure

    def tuple_hook(cls: Any) -> Callable[[object, object], tuple[object, ...]]:
        args = get_args(cls)
        size: int | None = None
        if len(args) == 2 and args[1] is Ellipsis:
            kinds: Callable[[int], Any] = lambda _: args[0]  # noqa: E731
        else:
            size = len(args)
            kinds = args.__getitem__
        hooks: dict[object, Callable[[Any, Any], Any]] = {}

        def hook_of(item_kind: object) -> Callable[[Any, Any], Any]:
            hook = hooks.get(item_kind)
            if hook is None:
                hook = hooks[item_kind] = converter.get_structure_hook(item_kind)
            return hook

        def structure(value: object, _: object) -> tuple[object, ...]:
            if type(value) is not list and type(value) is not tuple:
                raise Invalid(f"expected an array, got {kind(value)}")
            if size is not None and len(value) != size:
                raise Invalid(f"expected an array of {size} items, got {len(value)}")
            # Each item is read once (a second pass would count its problems twice).
            items: list[object] = []
            errors: list[Exception] = []
            for index, item in enumerate(value):
                item_kind = kinds(index)
                try:
                    items.append(hook_of(item_kind)(item, item_kind))
                except Exception as error:  # collected, then reported with their paths
                    errors.append(noted(error, index, item_kind))
                    if not found(error):
                        errors.append(noted(Invalid(STOPPED), index, item_kind))
                        break
            if errors:
                raise group(IterableValidationError, "While structuring an array", errors, tuple)
            return tuple(items)

        return structure

    converter.register_structure_hook_factory(_is_optional, optional_hook)
    converter.register_structure_hook_factory(_is_tuple, tuple_hook)


def class_structure(
    converter: Converter,
    cls: type[_T],
    *,
    required: Collection[str] | None = None,
    tag: tuple[str, str] | None = None,
    version: tuple[str, int] | None = None,
    after: Callable[[_T], None] | None = None,
) -> Callable[[object, object], _T]:
    """The structure hook of an attrs class: an object with its fields, strictly checked.

    Args:
        converter: the converter whose hooks read the fields.
        cls: the class.
        required: the fields that must be present (default: all of them).
        tag: ``(field, value)``: a tag field that may be present, and must
            then have this value.
        version: ``(field, number)``: a version field that must be present
            with exactly this number.
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
            raise Invalid(f"expected an object ({cls.__name__}), got {kind(value)}")
        if version is not None:
            field, wanted = version
            if field not in value:
                raise at(KeyError(field), field)
            given = value[field]
            if type(given) is not int or given != wanted:
                raise at(
                    Invalid(
                        f"unsupported format version {shown(given)} "
                        f"(this version of splendor-rules reads format {wanted})"
                    ),
                    field,
                )
            value = {k: v for k, v in value.items() if k != field}
        if tag is not None and tag[0] in value:
            field, name = tag
            if value[field] != name:
                raise at(Invalid(f"expected the type {name!r}, got {kind(value[field])}"), field)
            value = {k: v for k, v in value.items() if k != field}
        missing = [name for name in needed if name not in value]
        errors: list[Exception] = []
        for name in missing:
            errors.append(noted(KeyError(name), name, cls))
            found(errors[-1])
        built: _T | None = None
        try:
            built = generated(value, cls)
        except ClassValidationError as error:
            errors += [
                e
                for e in error.exceptions
                if not (isinstance(e, KeyError) and e.args and e.args[0] in missing)
            ]
            for e in error.exceptions:
                found(e)
        except ForbiddenExtraKeysError as error:
            errors.append(error)
            found(error)
        except SplendorError as error:
            errors.append(Invalid(str(error)))
            found(error)
        if errors or built is None:
            raise group(ClassValidationError, f"While structuring {cls.__name__}", errors, cls)
        if after is not None:
            after(built)
        return built

    return structure


def tagged_unstructure(
    converter: Converter, cls: type[object], field: str, value: object, *, omit_defaults: bool
) -> Callable[[Any], dict[str, object]]:
    """The unstructure hook of an attrs class, writing ``field: value`` first."""
    generated = make_dict_unstructure_fn(cls, converter, _cattrs_omit_if_default=omit_defaults)

    def unstructure(instance: object) -> dict[str, object]:
        return {field: value, **generated(instance)}

    return unstructure


def describe(error: BaseException, cls: type | None) -> str:
    """One problem, in words, for :func:`cattrs.transform_error`."""
    if isinstance(error, Invalid | SplendorError):
        return str(error)
    if isinstance(error, KeyError):
        return "required field missing"
    if isinstance(error, ForbiddenExtraKeysError):
        fields = ", ".join(short_repr(k, 40) for k in sorted(error.extra_fields))
        return f"unknown field(s) {fields}"
    return format_exception(error, cls)
