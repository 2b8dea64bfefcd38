"""Scripted fake bots, run as subprocesses by the protocol and arena tests."""
