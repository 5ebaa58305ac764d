"""The version, in one place: the package, the build and every file ginscore writes read it from here."""

__version__ = "0.4.0"
