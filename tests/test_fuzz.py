"""The fuzz harness in a small run, and proof that its checks can fail."""

from __future__ import annotations

import time

import splendor
from tools import fuzz


def test_a_small_fuzz_finds_nothing() -> None:
    lines: list[str] = []
    assert fuzz.fuzz(300, seed=7, out=lines.append) == 0
    assert lines[-1].startswith("fuzz: 300 cases (180 json, 90 action text, 30 record text")


def test_a_library_error_is_a_pass() -> None:
    def refuse() -> None:
        raise splendor.NotationError("no")

    assert fuzz.run_case(refuse, 10) is None


def test_another_error_is_a_finding() -> None:
    def crash() -> None:
        raise KeyError("red")

    assert fuzz.run_case(crash, 10) == "KeyError: 'red'"


def _spin(seconds: float) -> None:
    """Keep the processor busy for ``seconds`` of processor time."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_slow_case_is_a_finding() -> None:
    assert fuzz.run_case(lambda: _spin(0.05), 10, seconds_per_byte=0.0) is None
    problem = fuzz.run_case(lambda: _spin(fuzz.SECONDS_FIXED + 0.05), 10, 0.0)
    assert problem is not None
    assert problem.startswith("took ")


def test_a_greedy_case_is_a_finding() -> None:
    problem = fuzz.run_case(lambda: bytearray(fuzz.BYTES_FIXED + 1_000_000), 10)
    assert problem is not None
    assert problem.startswith("used ")


def test_the_peak_of_a_case_is_kept() -> None:
    peaks: list[int] = []
    assert fuzz.run_case(lambda: bytearray(1_000_000), 10, peaks=peaks) is None
    assert len(peaks) == 1
    assert peaks[0] >= 1_000_000
