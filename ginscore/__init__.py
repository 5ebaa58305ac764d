"""ginscore: scorekeeper and hand checker for Gin Rummy played with a real deck."""

__version__ = "0.2.0"
