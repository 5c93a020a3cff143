"""Several processes on one database: the bus, following other processes' moves, bot leases."""
