"""Hand and Foot, every house rule."""

__version__ = "0.1.0"
