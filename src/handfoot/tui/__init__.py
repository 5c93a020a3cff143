"""``handfoot play``: Hand and Foot in a terminal (Textual), on the embedded engine against bots or at a
live table of a server. ``source`` holds the two tables the app can show (``LocalTable``, ``LiveTable``)
behind one interface of JSON snapshots, ``cards`` draws cards, ``app`` is the Textual app."""
