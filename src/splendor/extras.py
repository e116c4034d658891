"""Importing a package of an optional extra: :func:`require`.

The one place that turns a missing optional package into
:class:`~splendor.errors.MissingExtraError`, for the RL environments, the
kernel's ``VectorEnv``, the server and the parallel runs. The error's advice
is the command that installs the extra where this copy of ``splendor-rules``
came from (:func:`install_command`): a checkout, a wheel file, a remote
archive or repository, or the package index. The packages of the library
that need an extra import it through :func:`require`.
"""

from __future__ import annotations

import importlib
import json
import os
import shlex
from importlib import metadata
from pathlib import Path
from types import ModuleType

from splendor.errors import MissingExtraError

__all__ = ["DISTRIBUTION", "advice", "install_command", "require"]

DISTRIBUTION = "splendor-rules"
"""The name of the distribution, as pip and the package index know it."""

# Characters that a POSIX shell still reads inside double quotes.
_SHELL_SPECIAL = frozenset('"$`\\!')


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import ``module``, or raise :class:`~splendor.errors.MissingExtraError` naming ``extra``.

    Args:
        module: the module to import, like ``"numpy"`` or ``"ray"``.
        extra: the extra of ``splendor-rules`` that installs it, like ``"rl"``.
        feature: what needs it, the start of the message (``"the server"``).

    Returns:
        The module.

    Raises:
        MissingExtraError: when the module cannot be imported; the message
            names the package and ends with the command that installs the
            extra for this installation (:func:`install_command`).

    >>> require("json", "rl", "this example").__name__
    'json'
    >>> try:
    ...     require("no_such_package_here", "server", "the server")
    ... except MissingExtraError as error:
    ...     print(error.extra)
    ...     print(str(error) == "the server needs the package 'no_such_package_here', "
    ...           f"which is not installed: {install_command('server')}")
    server
    True
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".", maxsplit=1)[0]
        raise MissingExtraError(
            f"{feature} needs the package {package!r}, which is not installed: "
            f"{install_command(extra)}",
            extra=extra,
        ) from error


def install_command(extra: str) -> str:
    """The command that installs ``extra`` for the ``splendor-rules`` installed here.

    Read from the installation's ``direct_url.json`` (PEP 610), which pip
    writes for anything not installed from a package index; see
    :func:`advice` for each case.
    """
    return advice(_direct_url(), extra)


def advice(direct_url: object, extra: str) -> str:
    """The ``pip install`` command for ``extra``, given a PEP 610 ``direct_url.json``.

    - a checkout installed in place (``pip install -e .``, ``dir_info`` with
      ``editable``): ``pip install -e "/path/to/checkout[rl]"``;
    - a checkout copied in (``pip install .``): ``pip install "/path/to/checkout[rl]"``;
    - a wheel or sdist file (``archive_info``): ``pip install "/path/to/file.whl[rl]"``;
    - a remote archive or a repository: ``pip install "splendor-rules[rl] @ URL"``;
    - the package index (no ``direct_url.json``), or a checkout or file that
      is no longer there: ``pip install "splendor-rules[rl]"``.

    >>> advice(None, "rl")
    'pip install "splendor-rules[rl]"'
    >>> advice({"url": "https://example.org/s.whl", "archive_info": {}}, "rl")
    'pip install "splendor-rules[rl] @ https://example.org/s.whl"'
    >>> advice({"url": "https://example.org/s.git", "vcs_info": {"vcs": "git",
    ...         "commit_id": "4e1f"}}, "server")
    'pip install "splendor-rules[server] @ git+https://example.org/s.git@4e1f"'
    """
    index = f'pip install "{DISTRIBUTION}[{extra}]"'
    if not isinstance(direct_url, dict):
        return index
    url = direct_url.get("url")
    if not isinstance(url, str) or not url:
        return index
    if url.startswith("file:"):
        return _local_advice(_file_path(url), direct_url, extra) or index
    vcs_info = direct_url.get("vcs_info")
    if isinstance(vcs_info, dict):
        vcs, commit = vcs_info.get("vcs"), vcs_info.get("commit_id")
        if not isinstance(vcs, str) or not isinstance(commit, str):
            return index
        url = f"{vcs}+{url}@{commit}"
    elif "archive_info" not in direct_url:
        return index
    return f"pip install {_quoted(f'{DISTRIBUTION}[{extra}] @ {url}')}"


def _local_advice(path: Path, direct_url: dict[object, object], extra: str) -> str | None:
    """The command for a checkout or a file on this machine, if it is still there."""
    dir_info = direct_url.get("dir_info")
    if isinstance(dir_info, dict) and path.is_dir():
        editable = "-e " if dir_info.get("editable") is True else ""
        return f"pip install {editable}{_quoted(f'{path}[{extra}]')}"
    if "archive_info" in direct_url and path.is_file():
        return f"pip install {_quoted(f'{path}[{extra}]')}"
    return None


def _direct_url() -> object:
    """The parsed ``direct_url.json`` of the installed distribution, or ``None``."""
    try:
        text = metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    if text is None:
        return None
    try:
        parsed: object = json.loads(text)
    except ValueError:
        return None
    return parsed


def _file_path(url: str) -> Path:
    """The path of a ``file:`` URL (percent-escapes decoded, a Windows drive kept)."""
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    return Path(url2pathname(urlsplit(url).path))


def _quoted(argument: str) -> str:
    """``argument`` quoted for the shell: in double quotes where that is enough."""
    if os.name == "nt" or not _SHELL_SPECIAL.intersection(argument):
        return f'"{argument}"'
    return shlex.quote(argument)
