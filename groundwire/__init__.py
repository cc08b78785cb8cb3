"""groundwire: screens AI memory claims before they reach a long-term store."""

__version__ = "0.1.0"
