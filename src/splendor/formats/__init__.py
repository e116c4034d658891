"""Games as data: versioned JSON, the action and record notation, game
records, and the fixed-size encoding of states and actions.

Built on :mod:`splendor.core`; the JSON readers and writers need ``cattrs``.
"""
