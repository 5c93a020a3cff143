"""Plots of a tournament (needs matplotlib: the ``sim`` extra): score distributions and win rates."""

from __future__ import annotations

from pathlib import Path

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
    unit = "hands" if summary.config.single_hands else "games"
    right.set_title(f"Wins over {data['games']} {unit}")
    fig.suptitle(f"{summary.config.rules.name}, {summary.config.players} players")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
