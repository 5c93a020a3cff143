"""Hand and Foot, every house rule.

The version is written once, in pyproject.toml; ``package_version()`` (and ``handfoot.__version__``)
read it from the installed package's metadata, as ``handfoot --version``, the server's ``/api/health``
and through it the browser client do.
"""


def package_version() -> str:
    """The installed version of handfoot (``unknown`` when run from a source tree not installed)."""
    from importlib.metadata import PackageNotFoundError, version  # here: importing handfoot stays light

    try:
        return version("handfoot")
    except PackageNotFoundError:
        return "unknown"


def __getattr__(name: str) -> str:
    """``handfoot.__version__``: the installed version, read from the metadata when first asked for."""
    if name == "__version__":
        return package_version()
    raise AttributeError(f"module 'handfoot' has no attribute {name!r}")
