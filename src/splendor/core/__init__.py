"""The engine: the rules of the game, and what one seat may see of it.

The bottom layer. Its modules import only each other, the standard library
and ``attrs`` (even inside functions; ``GameState._repr_svg_`` is the one
documented hook upwards). ``import splendor`` loads this package and nothing
else.
"""
