"""Storage: the database schema and its migrations, one transaction per method, snapshots."""
