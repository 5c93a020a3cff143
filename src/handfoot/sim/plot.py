"""Plots of a tournament (needs matplotlib: the ``sim`` extra): score distributions and win rates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from handfoot.sim.tournament import Summary


def supported_formats() -> frozenset[str]:
    """The file extensions (without the dot) matplotlib can write here. Raises ImportError when
    matplotlib is not installed."""
    from matplotlib.backend_bases import FigureCanvasBase

    return frozenset(FigureCanvasBase.get_supported_filetypes())


def plot_summary(summary: Summary, path: str | Path) -> None:
    """Write a figure to ``path``: per side, a histogram of hand scores (left) and the win rate with its
    95% Wilson interval (right). Raises ImportError when matplotlib is not installed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = summary.to_json()
    sides = data["sides"]
    labels = [f"{','.join(s['bots'])} ({','.join(str(x) for x in s['seats'])})" for s in sides]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    for side, label in enumerate(labels):
        scores = [hand[side] for outcome in summary.outcomes for hand in outcome.hand_scores]
        left.hist(scores, bins=30, alpha=0.5, label=label)
    left.set_xlabel("score per hand")
    left.set_ylabel("hands")
    left.set_title("Hand scores")
    left.legend(fontsize="small")
    rates = [s["win_rate"] for s in sides]
    low = [max(s["win_rate"] - s["ci95"][0], 0.0) for s in sides]
    high = [max(s["ci95"][1] - s["win_rate"], 0.0) for s in sides]
    right.bar(range(len(sides)), rates, yerr=[low, high], capsize=6, color="tab:blue", alpha=0.7)
    right.set_xticks(range(len(sides)), labels, rotation=15, fontsize="small")
    right.set_ylim(0, 1)
    right.set_ylabel("win rate (95% CI)")
    unit = summary.unit()
    right.set_title(f"Wins over {data[unit]} {unit}")
    fig.suptitle(f"{summary.config.rules.name}, {summary.config.players} players")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_comparison(data: dict[str, Any], path: str | Path, title: str) -> None:
    """Write a figure to ``path`` from ``comparison_json``'s ``data``: one panel per measure, the mean
    difference B - A over the same games with its 95% interval, and a line at no difference. Raises
    ImportError when matplotlib is not installed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = data["paired"]
    columns = 3
    lines = (len(rows) + columns - 1) // columns
    fig, axes = plt.subplots(lines, columns, figsize=(11, 2.6 * lines), squeeze=False)
    for axis, row in zip(axes.flat, rows, strict=False):
        low, high = row["ci95"]
        difference = row["difference"]
        axis.errorbar([difference], [0], xerr=[[difference - low], [high - difference]], fmt="o", capsize=6)
        axis.axvline(0, color="grey", linewidth=0.8, linestyle="--")
        axis.set_yticks([])
        axis.set_title(f"{row['measure']}\nA {row['a']:.3g}, B {row['b']:.3g}", fontsize="small")
        axis.set_xlabel("B - A (95% CI)", fontsize="small")
    for axis in list(axes.flat)[len(rows) :]:
        axis.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
