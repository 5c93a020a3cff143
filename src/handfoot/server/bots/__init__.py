"""Server-side bots: the runner that plays the bots' seats, and the fair queue of their decisions."""
