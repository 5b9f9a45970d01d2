"""cloudtui: a keyboard-first terminal UI for operating a cloud hosting account."""

__version__ = "0.1.0"
