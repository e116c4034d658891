"""Pictures of a table: the SVG drawing and the text board.

Both draw one model of the table (``_scene``); built on :mod:`splendor.core`.
"""
