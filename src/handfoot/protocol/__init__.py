"""The bot protocol (docs/bot-protocol.md): JSON lines between a runner and a bot program of any
language, over the program's standard input and output.

``offers`` lists what a seat is offered (the one place that asks the engine), ``messages`` builds and
reads the protocol's lines, ``process`` runs a bot program with bounded lines and a clock, and
``external`` plays a seat of a ``Game`` with such a program.
"""
