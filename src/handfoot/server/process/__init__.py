"""Start-up: ``handfoot serve``, preflight checks, the application's lifespan, caps at the door."""
