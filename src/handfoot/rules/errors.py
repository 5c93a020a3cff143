"""The error raised for a bad rule file or option value."""

from __future__ import annotations

from handfoot.wording import show


class RuleError(ValueError):
    """A rule option (or rule file) that cannot be used: names the option, the value and what is allowed."""

    def __init__(self, option: str, value: object, allowed: str, reason: str = "") -> None:
        self.option = option
        self.value = value
        self.allowed = allowed
        self.reason = reason
        why = f" ({reason})" if reason else ""
        super().__init__(f"rule option {option}: {show(value)} is not allowed{why}; allowed: {allowed}")
