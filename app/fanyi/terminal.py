"""What the command line needs from its process: checked input lines, output that fails in one line, SIGTERM as cancel.

No traceback reaches a user of ``fanyi translate``/``fanyi file`` because of the streams: a line of
stdin (or an argument) that is not text in the stdin encoding is reported and skipped; a closed
pipe (``| head -1``) or a full disk (``> /dev/full``) behind stdout ends the command with one line
on stderr; SIGTERM cancels like Ctrl+C, so temporary files are removed on the way out, and either
one during start-up ends it with one word.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO


class OutputFailed(Exception):
    """stdout cannot take more output; ``str()`` says why in one line."""


class _GuardedStream:
    """A text stream whose write and flush errors become OutputFailed (any other attribute passes through)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as error:
            raise OutputFailed(_why(error)) from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as error:
            raise OutputFailed(_why(error)) from error

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def _why(error: OSError) -> str:
    if isinstance(error, BrokenPipeError):
        return "the output was closed before everything was written (broken pipe)"
    return f"could not write the output: {error.strerror or error}"


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """stdout errors raise OutputFailed inside; everything written is flushed before leaving."""
    real = sys.stdout
    sys.stdout = _GuardedStream(real)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = real


def silence_stdout() -> None:
    """After an output failure: point stdout at the null device, so the interpreter's final flush cannot fail."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


class InputLines:
    """The texts to translate: the arguments, or stdin line by line; a line that is not valid text is skipped.

    A skipped line is reported on stderr and counted in ``skipped``; it yields "" so that output
    lines stay aligned with input lines.
    """

    def __init__(self, arguments: Iterable[str]) -> None:
        self._arguments = list(arguments)
        self.skipped = 0

    def __iter__(self) -> Iterator[str]:
        if self._arguments:
            for number, text in enumerate(self._arguments, 1):
                yield self._checked(text, f"argument {number}")
            return
        if sys.stdin is None:  # a windowed process has no stdin
            return
        encoding = sys.stdin.encoding or "utf-8"
        for number, raw in enumerate(sys.stdin.buffer, 1):
            try:
                text = raw.rstrip(b"\r\n").decode(encoding)
            except UnicodeDecodeError:
                yield self._skip(f"line {number} of the input is not valid {encoding} text")
                continue
            yield self._checked(text, f"line {number} of the input")

    def _checked(self, text: str, where: str) -> str:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: undecodable bytes in an argument
            return self._skip(f"{where} is not valid text (undecodable bytes)")
        return text

    def _skip(self, why: str) -> str:
        self.skipped += 1
        print(f"fanyi: {why}; skipped.", file=sys.stderr, flush=True)
        return ""


_signalled = 0  # the number of the signal that cancelled the command; 0 while none came


def exit_quietly_on_signals() -> None:
    """Until a command takes the signals over: Ctrl+C or SIGTERM ends the process at once, saying
    "cancelled", with 128 + the signal's number (130, 143: what a shell reports for a process the signal
    ended). While modules are imported (numpy, ONNX Runtime: a few tenths of a second) a KeyboardInterrupt
    would end in a traceback, or in "ImportError: initialization failed" when it lands inside an extension
    module; there is nothing to clean up yet."""

    def leave(signum: int, frame: object) -> None:
        if sys.stderr is not None:  # a windowed process has none
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.write("cancelled\n")
                sys.stderr.flush()
        os._exit(128 + signum)

    _handle(leave)


def cancel_on_signals() -> None:
    """Ctrl+C and SIGTERM raise KeyboardInterrupt, so cleanup runs (main thread only); ``signalled()``
    tells afterwards that one came (an import it interrupted may raise ImportError instead)."""

    def cancel(signum: int, frame: object) -> None:
        global _signalled
        _signalled = signum
        raise KeyboardInterrupt

    _handle(cancel)


def signalled() -> bool:
    return bool(_signalled)


def cancelled_status() -> int:
    """The exit status of a cancelled command: 128 + the number of the signal that cancelled it (130 for Ctrl+C,
    143 for SIGTERM), 130 for a KeyboardInterrupt that no handler of ours raised."""
    return 128 + (_signalled or signal.SIGINT)


def _handle(handler: Callable[[int, object], None]) -> None:
    for name in ("SIGINT", "SIGTERM"):
        with contextlib.suppress(ValueError, AttributeError, OSError):  # not the main thread; no such signal
            signal.signal(getattr(signal, name), handler)
