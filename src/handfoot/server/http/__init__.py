"""The HTTP API: one FastAPI router per resource, typed dependencies, error answers, the web pages.

Each route declares the shape of its JSON answer (``response_model``, a shape of ``wire.answers``; with
``REFUSALS`` for its errors), which ``/openapi.json`` gives, and answers with the JSON it built as it is
(a ``SafeJSONResponse``, or a body encoded once with its ETag): FastAPI never validates or encodes an
answer again, so the declaration documents it and costs nothing. The server tests check every answer
against its declared shape."""
