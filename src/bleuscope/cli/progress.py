"""The progress line on a terminal (stderr, only when it is a TTY and -q is not given), without a dependency.

A warning printed while the line is on screen would share its line: :func:`clear_line` erases it first
(the command's warning writer calls it), and the next update draws it again.
"""

from __future__ import annotations

import time

#: a progress line appears on a terminal once this many hypothesis segments (all systems together) are scored
PROGRESS_MIN_SEGMENTS = 200_000

#: the progress lines currently drawn
_ON_SCREEN: list = []


def clear_line() -> None:
    """Erase any progress line on screen (before a message is printed on the same stream)."""
    for progress in list(_ON_SCREEN):
        progress.clear()


def isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A minimal progress line on a terminal stream (no dependency); silent when disabled.

    ``total`` may be ``None`` (streamed input of unknown length): the line then shows the count and the rate.
    Nothing is shown before ``min_segments`` are done, so short runs print nothing."""

    def __init__(
        self,
        total: int | None,
        stream=None,
        enabled: bool = True,
        min_interval: float = 0.1,
        min_segments: int = 0,
        unit: str = "segments",
    ) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream
        self.enabled = enabled and stream is not None
        self.done = 0
        self.start = time.monotonic()
        self._last = 0.0
        self.min_interval = min_interval
        self.min_segments = min_segments
        self.label = ""

    def update(self, n: int, label: str | None = None) -> None:
        self.done += n
        if label is not None:
            self.label = label
        if not self.enabled or self.done < self.min_segments:
            return
        now = time.monotonic()
        if now - self._last < self.min_interval and (self.total is None or self.done < self.total):
            return
        self._last = now
        elapsed = now - self.start
        if self.total:
            frac = min(1.0, self.done / self.total)
            bar = "#" * int(frac * 30)
            text = f"{bar:<30} {frac * 100:5.1f}% {self.done}/{self.total} {self.unit}"
        else:
            rate = self.done / elapsed if elapsed > 0 else 0.0
            text = f"{self.done:,} {self.unit} ({rate:,.0f}/s)"
        if self not in _ON_SCREEN:  # before drawing: an interrupt during the write still gets the line cleared
            _ON_SCREEN.append(self)
        self.stream.write(f"\rbleuscope: {text} {elapsed:5.1f}s {self.label[:40]}\x1b[K")
        self.stream.flush()

    def clear(self) -> None:
        """Erase the line (a warning is about to be printed); the next update draws it again."""
        if self in _ON_SCREEN:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            _ON_SCREEN.remove(self)

    def close(self) -> None:
        self.clear()
