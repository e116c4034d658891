"""Perft regression vectors: the number of action sequences from fixed positions.

The numbers are stored in ``tests/core/vectors/perft.json`` (format in its
``format`` field) and were written by ``tests/core/vectors/generate.py``; this
test only recomputes and compares them. A mismatch means the set of legal
actions, or a state some action leads to, has changed somewhere in the tree.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.strategies import (
    leaf_digest,
    perft,
    position_digest,
    rules_from_json,
    seeded_position,
)

VECTORS = Path(__file__).with_name("vectors") / "perft.json"


def _load() -> list[dict[str, object]]:
    data = json.loads(VECTORS.read_text())
    assert isinstance(data, dict)
    assert isinstance(data["format"], str)
    cases = data["cases"]
    assert isinstance(cases, list)
    return cases


CASES = _load()


def _int(value: object) -> int:
    assert type(value) is int
    return value


@pytest.mark.parametrize("case", CASES, ids=[str(case["name"]) for case in CASES])
def test_perft_matches_the_stored_vectors(case: dict[str, object]) -> None:
    overrides = case["rules"]
    assert isinstance(overrides, dict)
    buy_bias = case["buy_bias"]
    assert isinstance(buy_bias, float)
    state = seeded_position(
        _int(case["players"]),
        _int(case["seed"]),
        _int(case["play_seed"]),
        _int(case["turns"]),
        rules_from_json(overrides),
        buy_bias,
    )
    # Random play from the seeds must reach the stored position before counting from it.
    assert state.turn == case["turn"]
    assert position_digest(state) == case["position"]
    expected = case["perft"]
    assert isinstance(expected, list)
    counted = [perft(state, depth) for depth in range(1, len(expected) + 1)]
    assert counted == expected
    assert leaf_digest(state, _int(case["digest_depth"])) == case["digest"]


def test_the_vectors_cover_every_player_count_and_depth_three() -> None:
    players = {case["players"] for case in CASES}
    assert players == {2, 3, 4}
    depths = [len(counts) for case in CASES if isinstance(counts := case["perft"], list)]
    assert len(depths) == len(CASES)
    assert max(depths) >= 3
    assert any(case["rules"] for case in CASES)
