"""Byte counts, speeds and durations written for people (the CLI, messages, the UI)."""

from __future__ import annotations


def human_size(n: float) -> str:
    """1536 → "1.5 KB": binary multiples, one decimal above bytes."""
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


GIB = 1 << 30


def listed_size(n: int) -> str:
    """A pack's or a download's size as every list writes it (README, the app, the command line): binary multiples,
    as Windows and most file managers write them, whole megabytes, gigabytes to one decimal; 313,000,000 bytes →
    "299 MB", 4,080,000,000 → "3.8 GB"."""
    if n < GIB:
        return f"{n / (1 << 20):.0f} MB"
    return f"{n / GIB:.1f} GB"


def human_speed(bytes_per_second: float) -> str:
    return f"{human_size(bytes_per_second)}/s"


def human_duration(seconds: float) -> str:
    """75 → "1:15", 3700 → "1:01:40"."""
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
