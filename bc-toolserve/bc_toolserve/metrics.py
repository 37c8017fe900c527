"""Request counters and a latency histogram, rendered in the Prometheus text exposition format."""
from __future__ import annotations

import bisect
from collections import Counter

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def _labels(**labels: str) -> str:
    inner = ",".join(f'{k}="{_escape(str(v))}"' for k, v in labels.items())
    return "{" + inner + "}" if inner else ""


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


class Metrics:
    """Counts requests by (operation, status), errors by type, and latency per operation."""

    def __init__(self, prefix: str = "bc_toolserve"):
        self.prefix = prefix
        self.requests: Counter[tuple[str, int]] = Counter()
        self.errors: Counter[str] = Counter()
        self.buckets: dict[str, list[int]] = {}
        self.sums: Counter[str] = Counter()

    def observe(self, operation: str, status: int, seconds: float, error_type: str | None = None) -> None:
        self.requests[(operation, status)] += 1
        if error_type:
            self.errors[error_type] += 1
        counts = self.buckets.get(operation)
        if counts is None:
            counts = self.buckets[operation] = [0] * (len(BUCKETS) + 1)
        counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.sums[operation] += seconds

    def render(self, gauges: dict[str, tuple] | None = None) -> str:
        """The exposition text; `gauges` maps a metric name to (help, [(labels, value)]) or (help, samples, type)
        for another type (a counter kept elsewhere)."""
        p = self.prefix
        out = [f"# HELP {p}_requests_total Tool requests handled, by operation and HTTP status.",
               f"# TYPE {p}_requests_total counter"]
        for (op, status), n in sorted(self.requests.items()):
            out.append(f"{p}_requests_total{_labels(operation=op, status=str(status))} {n}")
        out += [f"# HELP {p}_errors_total Error answers by error type.", f"# TYPE {p}_errors_total counter"]
        for kind, n in sorted(self.errors.items()):
            out.append(f"{p}_errors_total{_labels(type=kind)} {n}")
        out += [f"# HELP {p}_request_seconds Request latency.", f"# TYPE {p}_request_seconds histogram"]
        for op, counts in sorted(self.buckets.items()):
            running = 0
            for bound, n in zip(BUCKETS, counts[:-1], strict=True):
                running += n
                out.append(f"{p}_request_seconds_bucket{_labels(operation=op, le=repr(bound))} {running}")
            running += counts[-1]
            out.append(f"{p}_request_seconds_bucket{_labels(operation=op, le='+Inf')} {running}")
            out.append(f"{p}_request_seconds_sum{_labels(operation=op)} {self.sums[op]:.6f}")
            out.append(f"{p}_request_seconds_count{_labels(operation=op)} {running}")
        for name, (help_text, samples, *kind) in (gauges or {}).items():
            out += [f"# HELP {p}_{name} {help_text}", f"# TYPE {p}_{name} {kind[0] if kind else 'gauge'}"]
            for labels, value in samples:
                out.append(f"{p}_{name}{_labels(**labels)} {value}")
        return "\n".join(out) + "\n"
