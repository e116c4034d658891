"""Who plays: the bot protocol, the built-in bots, the information-set
search, and the loop that plays a game between bots.

Built on :mod:`splendor.core` and :mod:`splendor.formats`.
"""
