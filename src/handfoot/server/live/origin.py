"""Which web pages may open a WebSocket to this server: the ``Origin`` check.

A browser sends the page's origin (``https://cards.example.org``) with every WebSocket it opens, and
lets any page open one to any server. Without a check, a page on another site could play or watch in
the name of whoever visits it. So:

- with a public URL (``--public-url``, ``HANDFOOT_PUBLIC_URL``): only pages from that origin, and pages
  of this computer's own loopback address opened on it (``http://localhost:8000`` on the server itself);
- without one: only pages from the host the connection was made to (the request's ``Host``: the
  origin's host equal to it, and its port too where the ``Host`` names one);
- a connection without an ``Origin`` (programs, not browsers: bots, tests, scripts) is let in, as no
  browser page can open a WebSocket without one.
"""

from __future__ import annotations

from urllib.parse import urlsplit

_DEFAULT_PORTS = {"http": 80, "https": 443}
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


def _host_port(netloc: str) -> tuple[str, int | None] | None:
    """``host`` and port (None if absent) of a ``host[:port]`` text, or None if it cannot be read."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    return (host, port) if host else None


def origin_allowed(origin: str | None, public_url: str, host: str | None) -> bool:
    """True if a WebSocket opened from ``origin`` (the header's value, None if absent) may connect, for
    a server whose public URL is ``public_url`` (an origin as ``settings.public_origin`` keeps it; ``""``
    if none) and a request whose ``Host`` header is ``host``."""
    if origin is None:
        return True
    origin = origin.strip().lower().rstrip("/")
    if public_url and origin == public_url.lower():
        return True
    try:
        parts = urlsplit(origin)
        origin_port = parts.port or _DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    origin_host = (parts.hostname or "").lower()
    if parts.scheme not in _DEFAULT_PORTS or not origin_host or not host:
        return False
    target = _host_port(host)
    if target is None:
        return False
    target_host, target_port = target
    same = origin_host == target_host and (target_port is None or target_port == origin_port)
    # With a public URL, the host's own address counts only on this computer (no other site can make a
    # browser send a loopback Host: a name that resolves to 127.0.0.1 arrives under that name).
    return same and (not public_url or target_host in _LOOPBACK)


def expected_origins(public_url: str, host: str | None) -> str:
    """The pages a connection is accepted from, in words (for the refusal)."""
    if public_url:
        return f"pages of {public_url} (or of localhost, on the server itself)"
    return f"pages of this server's own address ({host or 'unknown'})"
