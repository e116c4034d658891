"""Sphinx configuration of the splendor-rules documentation.

Built by ``nox -s docs`` with ``-W -n`` (warnings are errors, every cross-reference
must resolve), once as HTML and once with the ``doctest`` builder, which runs the
``{doctest}`` blocks of the pages. The docstrings' own examples are run by pytest
(``--doctest-modules``), not here.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import types
from collections.abc import Iterator
from typing import Final, Protocol

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.inspect import stringify_signature
from sphinx.util.typing import stringify_annotation

import splendor

logger = logging.getLogger(__name__)

project = "splendor-rules"
author = "the splendor-rules authors"
copyright = "the splendor-rules authors"
release = splendor.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx_copybutton",
]
# The copy button copies code without the ">>> " and "... " prompts, and for a
# doctest only its input lines.
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
nitpicky = True

# Names from outside the project that appear in rendered signatures, base
# classes and field types. Without intersphinx (the build must work offline)
# they cannot link anywhere; they are the only references left unresolved.
nitpick_ignore = [
    ("py:class", "splendor.core._table_fields.TableAccessors"),  # base of GameState and PlayerView
    ("py:class", "splendor.core._table_fields.HoldingsAccessors"),  # of PlayerState, PublicPlayer
    ("py:class", "splendor.remote._transport.LoopThread"),  # the loop of Engine and UsiEngine
    ("py:class", "collections.abc.Mapping"),  # base class of Tokens
    ("py:class", "collections.abc.Sequence"),  # return type of legal_actions
    ("py:class", "collections.abc.Iterable"),
    ("py:class", "types.ModuleType"),  # what splendor.extras.require returns
    ("py:class", "collections.abc.Iterator"),
    ("py:class", "collections.abc.Callable"),
    ("py:class", "enum.StrEnum"),  # base class of Gem
    ("py:class", "pathlib.Path"),
    ("py:class", "random.Random"),
    ("py:mod", "secrets"),  # new_game's fresh seeds come from it
    ("py:class", "types.MappingProxyType"),
    ("py:class", "types.UnionType"),
    ("py:class", "JsonConverter"),  # the cattrs converter class
    ("py:class", "cattrs.preconf.json.JsonConverter"),
    ("py:class", "attrs.Attribute"),
    ("py:class", "os.PathLike"),
    ("py:class", "io.TextIOBase"),
    ("py:class", "argparse.ArgumentParser"),
    ("py:class", "argparse.Namespace"),
    ("py:class", "Starlette"),  # the server's ASGI application
    ("py:class", "starlette.applications.Starlette"),
    ("py:class", "asyncio.Task"),
    ("py:class", "Path"),  # pathlib.Path, as short signatures print it
    ("py:class", "array.array"),  # the value network's weights
    ("py:mod", "secrets"),
    # Built-in functions: Sphinx itself only lets built-in *classes* through.
    ("py:func", "input"),
    ("py:func", "print"),
    ("py:func", "open"),
]
# Private names (a leading underscore, such as a module's ``_T`` type variable)
# have no entry by design, so a signature that shows one cannot link it.
nitpick_ignore_regex = [(r"py:(class|obj)", r"splendor(\.\w+)*\._\w+")]
# The frameworks of the RL extras (numpy, Gymnasium, PettingZoo, OpenSpiel)
# have no entries here either.
nitpick_ignore_regex += [
    (r"py:(class|obj)", r"(numpy|np|npt|gymnasium|pettingzoo|pyspiel|open_spiel)(\.\w+)*"),
    # The server's frameworks and the standard modules it builds on.
    (r"py:(class|obj|exc)", r"(uvicorn|psycopg|logging|sqlite3)(\.\w+)*"),
    (r"py:(class|obj)", r"(NDArray|ndarray|float32|float64|int8|int64|dtype|Env|AECEnv)"),
]

# -- MyST ---------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
myst_heading_anchors = 3

# -- autodoc / napoleon ---------------------------------------------------------
autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "show-inheritance": True,
}
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
# No ``autodoc_type_aliases``: signatures spell the ``Action`` union out as its
# five classes (each a link), and ``splendor.core.actions.Action`` has its own entry.
python_use_unqualified_type_names = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = False
napoleon_use_rtype = False
napoleon_attr_annotations = True
autosummary_generate = False

# -- doctest ------------------------------------------------------------------
# Only the explicit ``{doctest}`` blocks of the pages run here; docstring
# examples (plain ``>>>`` blocks) run under pytest with their module's globals.
doctest_test_doctest_blocks = ""
doctest_global_setup = ""


def _doctest_prompt_blocks(app: Sphinx, doctree: nodes.document) -> None:
    """Make a page's plain code blocks of ``>>>`` examples run as doctests too.

    A fenced block in a page (```` ```python ```` or ```` ```pycon ````) whose
    first line starts with ``>>>`` joins the page's ``default`` doctest group,
    exactly like a ``{doctest}`` block, and is shown as a console session.
    """
    for block in doctree.findall(nodes.literal_block):
        if "testnodetype" in block or block.get("language") not in {None, "python", "pycon"}:
            continue
        if block.astext().lstrip().startswith(">>>"):
            block["testnodetype"] = "doctest"
            block["groups"] = ["default"]
            block["options"] = {}
            block["language"] = "pycon"


# -- HTML -----------------------------------------------------------------------
html_theme = "furo"
html_title = f"splendor-rules {release}"
html_static_path: list[str] = []
pygments_style = "friendly"
pygments_dark_style = "monokai"


# -- Attribute docstrings ---------------------------------------------------------
# napoleon reads the first line of an attribute's docstring as ``type: text``
# when it holds a colon; the project's attribute docstrings never give a type
# that way (the annotations give it), so that line is kept as plain text.


_ATTRIBUTE_KINDS = frozenset({"attribute", "data", "property"})
_ATTRIBUTE_DOCSTRINGS: dict[str, list[str]] = {}


def _save_attribute_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    if what in _ATTRIBUTE_KINDS:
        _ATTRIBUTE_DOCSTRINGS[name] = list(lines)


def _restore_attribute_docstring(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    if what in _ATTRIBUTE_KINDS and name in _ATTRIBUTE_DOCSTRINGS:
        lines[:] = _ATTRIBUTE_DOCSTRINGS.pop(name)


def _drop_object_base(
    app: Sphinx, name: str, obj: object, options: object, bases: list[type]
) -> None:
    """No "Bases: object" line under a class that has no other base."""
    if bases in ([object], [Protocol]):
        bases.clear()


def _drop_empty_bases(app: Sphinx, doctree: nodes.document) -> None:
    """Remove the "Bases:" line autodoc still writes when no base is left to show."""
    for paragraph in list(doctree.findall(nodes.paragraph)):
        if paragraph.astext().strip() == "Bases:":
            paragraph.parent.remove(paragraph)


def _protocol_signature(
    app: Sphinx,
    what: str,
    name: str,
    obj: object,
    options: object,
    signature: str | None,
    return_annotation: str | None,
) -> tuple[str, str | None] | None:
    """A callable protocol (``Bot``) shows how it is called, not ``(*args, **kwargs)``."""
    if what != "class" or not isinstance(obj, type) or not getattr(obj, "_is_protocol", False):
        return None
    call = vars(obj).get("__call__")
    if call is None:
        return None
    called = inspect.signature(call, eval_str=True)
    parameters = list(called.parameters.values())[1:]  # without self
    shown = called.replace(parameters=parameters)
    text = stringify_signature(shown, unqualified_typehints=True, show_return_annotation=False)
    returned = stringify_annotation(shown.return_annotation, "smart")
    return text, returned


# -- Re-exported names ------------------------------------------------------------
# Every object is documented once, in the module that defines it
# (``splendor.core.rules.Rules``). The package re-exports the public names, and
# docstrings and pages refer to them that way (``splendor.Rules``,
# ``splendor.Rules.token_limit``, ``splendor.apply``); those references are
# resolved here to the defining module's entry.


_IMPORT_ERRORS: dict[str, str] = {}


def _public_modules() -> Iterator[types.ModuleType]:
    """The package and every public submodule (no leading underscore).

    A submodule that fails to import is left out and reported as a warning.
    """
    yield splendor
    for info in pkgutil.iter_modules(splendor.__path__, "splendor."):
        if info.name.rsplit(".", 1)[1].startswith("_"):
            continue
        if info.name in LAYERS:
            # A layer's package holds modules: each of them has its page.
            package = importlib.import_module(info.name)
            for inner in pkgutil.iter_modules(package.__path__, f"{info.name}."):
                if not inner.name.rsplit(".", 1)[1].startswith("_"):
                    yield from _imported(inner.name)
            continue
        yield from _imported(info.name)


#: The packages that only group the modules of one layer (no public names of their own).
LAYERS: Final = frozenset(
    f"splendor.{name}" for name in ("core", "formats", "draw", "players", "arena")
)


def _imported(name: str) -> Iterator[types.ModuleType]:
    """The module ``name``, or nothing (its import error is kept to be reported)."""
    try:
        yield importlib.import_module(name)
    except Exception as error:  # reported by _check_every_name_documented
        _IMPORT_ERRORS[name] = f"{type(error).__name__}: {error}"


def _canonical_names() -> dict[str, str]:
    """``splendor.<name>`` -> ``splendor.<module>.<name>`` for every re-export."""
    defined: dict[str, str] = {}
    for module in _public_modules():
        if module is splendor:
            continue
        for name in getattr(module, "__all__", ()):
            defined.setdefault(name, module.__name__)
    found = {}
    for name in splendor.__all__:
        obj = getattr(splendor, name)
        home = getattr(obj, "__module__", None) if callable(obj) else None
        private = isinstance(home, str) and any(p.startswith("_") for p in home.split("."))
        if private or not (isinstance(home, str) and home.startswith("splendor.")):
            # Defined in a private module: documented where it is exported.
            home = defined.get(name)
        if home is not None:
            found[f"splendor.{name}"] = f"{home}.{name}"
    return found


_CANONICAL = _canonical_names()


def _resolve_reexport(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.TextElement
) -> nodes.Element | None:
    if node.get("refdomain") != "py":
        return None
    target: str = node.get("reftarget", "").removeprefix(".")
    candidates = [target]
    module = node.get("py:module")
    if module and not target.startswith("splendor."):
        # A short name in a docstring, e.g. :func:`apply` in the package's own.
        candidates.append(f"{module}.{target}")
    domain = env.domains.python_domain
    for candidate in candidates:
        head, _, rest = candidate.partition(".")
        if head != "splendor" or not rest:
            continue
        name, _, attribute = rest.partition(".")
        home = _CANONICAL.get(f"splendor.{name}")
        if home is None:
            continue
        new_target = f"{home}.{attribute}" if attribute else home
        found = domain.resolve_xref(
            env, node["refdoc"], app.builder, node["reftype"], new_target, node, contnode
        )
        if found is not None:
            return found
    for candidate in candidates:
        home = _package_home(candidate)
        if home is not None:
            found = domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], home, node, contnode
            )
            if found is not None:
                return found
    return None


def _package_home(target: str) -> str | None:
    """Where a name a subpackage re-exports is documented: ``splendor.remote.Engine`` is
    ``splendor.remote.host.Engine``, as are its attributes; a name a subpackage leaves in
    its modules (``splendor.remote.GRACE``) is looked for in their ``__all__``."""
    parts = target.split(".")
    for size in range(len(parts) - 1, 1, -1):
        package = sys.modules.get(".".join(parts[:size]))
        if package is None or not hasattr(package, "__path__"):
            continue
        name, rest = parts[size], parts[size + 1 :]
        homes = [
            module.__name__
            for info in pkgutil.iter_modules(package.__path__, f"{package.__name__}.")
            if not info.name.rsplit(".", 1)[1].startswith("_")
            for module in _imported(info.name)
            if name in getattr(module, "__all__", ())
        ]
        if homes:
            return ".".join([homes[0], name, *rest])
    return None


# -- A table of the package's re-exports ---------------------------------------------


class PackageExports(SphinxDirective):
    """``.. splendor-exports::``: an autosummary table of ``splendor.__all__``.

    Each row links to the entry in the module that defines the name, so the
    table stays complete as names are added. It writes reStructuredText, so
    a Markdown page uses it inside an ``{eval-rst}`` block.
    """

    has_content = False

    def run(self) -> list[nodes.Node]:
        canonical = _CANONICAL
        lines = [".. currentmodule:: splendor", "", ".. autosummary::", ""]
        for name in sorted(splendor.__all__, key=str.lower):
            home = canonical.get(f"splendor.{name}", f"splendor.{name}")
            # Relative to the current module, as autosummary asks.
            lines.append(f"   ~{home.removeprefix('splendor.')}")
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="splendor.__all__"), 0, container)
        return list(container.children)


# -- Every public name is documented -------------------------------------------------


def _check_every_name_documented(app: Sphinx, env: BuildEnvironment) -> None:
    """Warn about a name of a public ``__all__`` with no entry in the API pages.

    autodoc leaves out members without a docstring, so this also catches a
    public name that has none.
    """
    for name, error in _IMPORT_ERRORS.items():
        logger.warning("cannot import %s: %s", name, error, type="splendor", subtype="import")
    objects = env.domains.python_domain.objects
    documented = set(objects)
    canonical = _CANONICAL
    missing: list[str] = []
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            full = f"{module.__name__}.{name}"
            full = canonical.get(full, full)
            home = getattr(getattr(module, name), "__module__", None)
            if full not in documented and f"{home}.{name}" in documented:
                continue  # a re-export, documented in the module that defines it
            if full not in documented:
                missing.append(full)
                continue
            obj = getattr(module, name)
            if isinstance(obj, type) and obj.__module__ == module.__name__:
                # The class's own public members: methods, properties, fields.
                missing += [
                    f"{full}.{member}"
                    for member in vars(obj)
                    if not member.startswith("_") and f"{full}.{member}" not in documented
                ]
    for full in dict.fromkeys(missing):
        logger.warning(
            "public name %s has no entry in the API reference "
            "(no docstring, or its module has no page)",
            full,
            type="splendor",
            subtype="undocumented",
        )
    for module in _public_modules():
        if module is not splendor and module.__name__ not in env.domains.python_domain.modules:
            logger.warning(
                "public module %s has no page in the API reference",
                module.__name__,
                type="splendor",
                subtype="undocumented",
            )


def setup(app: Sphinx) -> None:
    app.add_directive("splendor-exports", PackageExports)
    app.connect("missing-reference", _resolve_reexport)
    # Around napoleon (priority 500), which would rewrite the docstring.
    app.connect("autodoc-process-docstring", _save_attribute_docstring, priority=400)
    app.connect("autodoc-process-docstring", _restore_attribute_docstring, priority=600)
    app.connect("autodoc-process-bases", _drop_object_base)
    app.connect("autodoc-process-signature", _protocol_signature)
    app.connect("doctree-read", _drop_empty_bases)
    app.connect("doctree-read", _doctest_prompt_blocks)
    app.connect("env-check-consistency", _check_every_name_documented)
