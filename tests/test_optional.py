"""The advice of MissingExtraError: the install command for where splendor-rules came from.

Each test stands in for the installed distribution's metadata (the
``direct_url.json`` pip writes, PEP 610) and checks the command given.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pytest

from splendor import extras
from splendor.errors import MissingExtraError

INDEX = 'pip install "splendor-rules[rl]"'


class _Installed(metadata.Distribution):
    """An installed splendor-rules whose ``direct_url.json`` is ``text`` (None: no such file)."""

    def __init__(self, text: str | None) -> None:
        self._text = text

    def read_text(self, filename: str) -> str | None:
        return self._text if filename == "direct_url.json" else None

    def locate_file(self, path: str | os.PathLike[str]) -> Path:
        raise NotImplementedError


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Callable[[object], None]:
    """Make the metadata of splendor-rules say it was installed as described.

    Called with a dictionary (written as ``direct_url.json``), a string (the
    file's raw text), or ``None`` (no such file: installed from an index).
    """
    real = metadata.distribution

    def install(direct_url: object) -> None:
        text = direct_url if isinstance(direct_url, str | None) else json.dumps(direct_url)

        def distribution(name: str) -> metadata.Distribution:
            return _Installed(text) if name == "splendor-rules" else real(name)

        monkeypatch.setattr(metadata, "distribution", distribution)

    return install


def test_an_editable_checkout_is_installed_again_in_place(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    installed({"url": tmp_path.as_uri(), "dir_info": {"editable": True}})
    assert extras.install_command("rl") == f'pip install -e "{tmp_path}[rl]"'


def test_a_checkout_copied_in_is_installed_again_from_the_checkout(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    installed({"url": tmp_path.as_uri(), "dir_info": {}})
    assert extras.install_command("server") == f'pip install "{tmp_path}[server]"'
    installed({"url": tmp_path.as_uri(), "dir_info": {"editable": False}})
    assert extras.install_command("server") == f'pip install "{tmp_path}[server]"'


def test_a_wheel_file_is_named_with_the_extra(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    wheel = tmp_path / "splendor_rules-0.1.0-cp312-cp312-manylinux_2_17_x86_64.whl"
    wheel.write_bytes(b"PK")
    installed({"url": wheel.as_uri(), "archive_info": {"hashes": {"sha256": "00"}}})
    assert extras.install_command("rl") == f'pip install "{wheel}[rl]"'


def test_a_wheel_that_is_gone_gives_the_package_index(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    wheel = tmp_path / "splendor_rules-0.1.0-py3-none-any.whl"
    installed({"url": wheel.as_uri(), "archive_info": {}})
    assert extras.install_command("rl") == INDEX


def test_a_checkout_that_is_gone_gives_the_package_index(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    installed({"url": (tmp_path / "removed").as_uri(), "dir_info": {"editable": True}})
    assert extras.install_command("rl") == INDEX


def test_an_install_from_the_index_gives_the_package_index(
    installed: Callable[[object], None],
) -> None:
    installed(None)
    assert extras.install_command("rl") == INDEX


def test_no_installed_distribution_gives_the_package_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def distribution(name: str) -> metadata.Distribution:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "distribution", distribution)
    assert extras.install_command("rl") == INDEX


@pytest.mark.parametrize(
    "text",
    ["{not json", "[]", '{"dir_info": {}}', '{"url": 3, "dir_info": {}}', '{"url": "file:///"}'],
)
def test_a_direct_url_file_that_says_nothing_usable_gives_the_package_index(
    installed: Callable[[object], None], text: str
) -> None:
    installed(text)
    assert extras.install_command("rl") == INDEX


def test_a_path_with_a_space_is_decoded_from_the_url_and_quoted(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    checkout = tmp_path / "my checkout"
    checkout.mkdir()
    installed({"url": checkout.as_uri(), "dir_info": {"editable": True}})
    assert "%20" in checkout.as_uri()
    assert extras.install_command("rl") == f'pip install -e "{checkout}[rl]"'


@pytest.mark.skipif(os.name == "nt", reason="the POSIX shell's quoting")
def test_a_path_the_shell_would_expand_in_double_quotes_is_single_quoted(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    checkout = tmp_path / "price$HOME"
    checkout.mkdir()
    installed({"url": checkout.as_uri(), "dir_info": {}})
    assert extras.install_command("rl") == f"pip install '{checkout}[rl]'"


def test_a_remote_archive_and_a_repository_are_direct_references(
    installed: Callable[[object], None],
) -> None:
    installed({"url": "https://example.org/splendor_rules-0.1.0.tar.gz", "archive_info": {}})
    assert extras.install_command("rl") == (
        'pip install "splendor-rules[rl] @ https://example.org/splendor_rules-0.1.0.tar.gz"'
    )
    repository = "https://example.org/splendor-rules.git"
    commit = "0123456789abcdef0123456789abcdef01234567"
    installed({"url": repository, "vcs_info": {"vcs": "git", "commit_id": commit}})
    assert extras.install_command("ray") == (
        f'pip install "splendor-rules[ray] @ git+{repository}@{commit}"'
    )
    installed({"url": repository, "vcs_info": {"vcs": "git"}})
    assert extras.install_command("ray") == 'pip install "splendor-rules[ray]"'


def test_the_error_of_a_missing_extra_ends_with_the_command_for_this_installation(
    installed: Callable[[object], None], tmp_path: Path
) -> None:
    installed({"url": tmp_path.as_uri(), "dir_info": {"editable": True}})
    with pytest.raises(MissingExtraError) as info:
        extras.require("no_such_package_here", "rl", "the environments")
    assert str(info.value) == (
        "the environments needs the package 'no_such_package_here', which is not installed: "
        f'pip install -e "{tmp_path}[rl]"'
    )
    assert info.value.extra == "rl"


def test_the_command_of_this_installation_is_what_its_metadata_says() -> None:
    # Whatever the test run was installed from, the advice follows its record.
    try:
        text = metadata.distribution("splendor-rules").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        text = None
    expected = extras.advice(None if text is None else json.loads(text), "rl")
    assert extras.install_command("rl") == expected
