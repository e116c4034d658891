"""XML escaping: :func:`escape`, for the SVG pictures, the rating plot and the analysis chart."""

from __future__ import annotations

import re
from typing import Final

__all__ = ["escape"]

# Characters XML 1.0 does not allow anywhere in a document, even as references:
# the C0 controls but tab, newline and carriage return, lone surrogates, U+FFFE, U+FFFF.
_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    """``text`` for XML character data or a quoted attribute value.

    ``&``, ``<``, ``>``, ``"`` and ``'`` are written as references, and each
    character XML 1.0 forbids is replaced by U+FFFD (the replacement
    character), so the document stays well-formed whatever the text holds.

    >>> escape("<Ann & \\"Bo\\">\\x00")
    '&lt;Ann &amp; &quot;Bo&quot;&gt;\\ufffd'
    """
    text = _NOT_XML.sub("\ufffd", text)
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&#39;")
    )
