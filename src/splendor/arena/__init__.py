"""Many games at once: tournaments and ratings, self-play records, and
parallel runs (locally or on Ray); and the analysis of one game, position by
position (:mod:`splendor.arena.analysis`).

Built on the players and on the compiled kernel (:mod:`splendor.fast`).
"""
