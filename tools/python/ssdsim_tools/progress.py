"""The sweep's progress line on stderr: points done, failed and left, and an estimate of the
time left from this session's pace. On a terminal it redraws one line; otherwise it prints a
line at most every twentieth of the sweep, so logs stay short."""
import sys
import time


def duration(seconds):
    seconds = int(round(seconds))
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


class Progress:
    def __init__(self, total, skipped, stream=sys.stderr):
        self.total = total
        self.done = skipped  # finished before this session (resumed)
        self.failed = 0
        self.ran = 0
        self.stream = stream
        self.started = time.monotonic()
        self.tty = stream.isatty()
        self.last_printed = -1
        self.step = max(1, total // 20)

    def line(self):
        left = self.total - self.done - self.failed
        width = 30
        filled = width * (self.done + self.failed) // max(1, self.total)
        text = (f"sweep [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} done, "
                f"{self.failed} failed, {left} left")
        if self.ran and left:
            pace = (time.monotonic() - self.started) / self.ran
            text += f", ETA {duration(pace * left)}"
        return text

    def update(self, status):
        self.ran += 1
        if status in ("ok", "mismatch"):
            self.done += 1
        else:
            self.failed += 1
        finished = self.done + self.failed
        if self.tty:
            self.stream.write("\r" + self.line() + "\033[K")
            if finished == self.total:
                self.stream.write("\n")
        elif finished == self.total or finished - self.last_printed >= self.step:
            self.stream.write(self.line() + "\n")
            self.last_printed = finished
        self.stream.flush()
