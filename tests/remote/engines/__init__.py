"""Misbehaving engines of the bot protocol, each run as ``python -m tests.remote.engines.NAME``."""
