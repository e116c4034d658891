"""Loading and saving the files named on the command line: records and states."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Final

from splendor.cli.errors import FileError
from splendor.core.state import GameState
from splendor.core.views import PlayerView
from splendor.errors import SplendorError
from splendor.formats.notation import format_record, parse_record
from splendor.formats.record import GameRecord
from splendor.formats.serialization import from_json, to_json
from splendor.schema import FORMAT_VERSION, RECORD_FORMAT_VERSION, RECORD_FORMATS

__all__ = ["describe", "load_file", "load_record", "save_record", "write_text"]

# Keys found only in a record's JSON, only in a view's, and in a state's (and a view's).
_RECORD_KEYS: Final = frozenset({"actions", "seed", "names", "result"})
_VIEW_KEYS: Final = frozenset({"seat", "own", "deck_sizes"})
_STATE_KEYS: Final = frozenset({"bank", "board", "decks", "current_player", "turn", "winners"})

_NEITHER: Final = (
    f'is not a game record (a JSON document with "format": {RECORD_FORMAT_VERSION}, '
    f"or {' or '.join(map(str, RECORD_FORMATS[:-1]))} from earlier versions) "
    f'or a game state or view (with "format": {FORMAT_VERSION})'
)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def load_file(path: str) -> GameRecord | GameState | PlayerView:
    """Read a record (JSON or the text format), a state or a player's view (JSON) from a file.

    Raises:
        FileError: when the file cannot be read or is not a record, a state or a view.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FileError(f"cannot read {path}: {error}") from error
    try:
        if text.lstrip().startswith("[") and _is_json(text):
            raise FileError(f"{path} {_NEITHER}; it holds no JSON object")
        if text.lstrip().startswith("{"):
            try:
                data = json.loads(text)
            except RecursionError as error:
                raise FileError(f"{path} is not valid JSON: nested too deeply") from error
            except ValueError as error:
                raise FileError(f"{path} is not valid JSON: {error}") from error
            if isinstance(data, dict) and _RECORD_KEYS & data.keys():
                return from_json(text, GameRecord)
            if isinstance(data, dict) and _VIEW_KEYS & data.keys():
                return from_json(text, PlayerView)
            if isinstance(data, dict) and _STATE_KEYS & data.keys():
                return from_json(text, GameState)
            if not isinstance(data, dict):
                raise FileError(f"{path} {_NEITHER}; it holds no JSON object")
            try:
                return from_json(text, GameState)
            except SplendorError as error:
                raise FileError(f"{path} {_NEITHER}; read as a state: {error}") from error
        return parse_record(text)
    except FileError:
        raise
    except SplendorError as error:
        raise FileError(f"cannot load {path}: {error}") from error
    except RecursionError as error:
        raise FileError(f"cannot load {path}: nested too deeply") from error
    except ValueError as error:
        # The loaders raise library errors only; this keeps a slip a one-line message.
        raise FileError(f"cannot load {path}: {error}") from error


def load_record(path: str, game: int | None = None) -> GameRecord:
    """Read one game record: a JSON record, a text record, or line ``game`` of a JSON Lines file.

    A JSON Lines file (one record a line, as ``splendor.arena.selfplay``
    writes) holding several games needs ``game``, counted from 1; a file of
    one record takes only ``game`` 1.

    Raises:
        FileError: when the file cannot be read, holds no record, or has no game ``game``.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise FileError(f"cannot read {path}: {error}") from error
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].lstrip().startswith("{") and _is_json(lines[0]):
        if game is None:
            raise FileError(
                f"{path} holds {len(lines)} games, one a line: choose one with --game N "
                f"(1 to {len(lines)})"
            )
        if not 1 <= game <= len(lines):
            raise FileError(f"{path} has no game {game}: it holds games 1 to {len(lines)}")
        try:
            return from_json(lines[game - 1], GameRecord)
        except SplendorError as error:
            raise FileError(f"cannot load game {game} of {path}: {error}") from error
    if game is not None and game != 1:
        raise FileError(f"{path} holds one game: there is no game {game}")
    loaded = load_file(path)
    if not isinstance(loaded, GameRecord):
        raise FileError(f"{path} holds {describe(loaded)}, not a game record")
    return loaded


def describe(loaded: GameRecord | GameState | PlayerView) -> str:
    """What a loaded file holds, for messages: ``"a game record"``, ``"a state"``, ``"a view"``."""
    if isinstance(loaded, GameRecord):
        return "a game record"
    return "a state" if isinstance(loaded, GameState) else "a player's view"


def save_record(record: GameRecord, path: str) -> None:
    """Write a record to a file, as JSON for ``.json`` files, else as text.

    The file is replaced in one step (written aside, then renamed), so an
    interruption never leaves a half-written record.

    Raises:
        FileError: when the file cannot be written.
    """
    text = to_json(record, indent=1) + "\n" if path.endswith(".json") else format_record(record)
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise FileError(f"cannot write {path}: {error}") from error


def write_text(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``.

    Raises:
        FileError: when the file cannot be written.
    """
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise FileError(f"cannot write {path}: {error}") from error
