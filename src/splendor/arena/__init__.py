"""Many games at once: tournaments and ratings, self-play records, and
parallel runs (locally or on Ray).

Built on the players and on the compiled kernel (:mod:`splendor.fast`).
"""
