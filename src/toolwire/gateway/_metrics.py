"""Prometheus metrics of the gateway, in the text exposition format (version 0.0.4).

=====================================================  =========  ===================================
metric                                                 type       labels
=====================================================  =========  ===================================
``toolwire_gateway_requests_total``                    counter    client, upstream, status
``toolwire_gateway_request_duration_seconds``          histogram  client, upstream
``toolwire_gateway_upstream_errors_total``             counter    upstream, error
``toolwire_gateway_open_streams``                      gauge      --
``toolwire_gateway_tokens_total``                      counter    direction (input, output)
``toolwire_gateway_traces_total``                      counter    outcome (written, dropped, failed)
=====================================================  =========  ===================================
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field

from toolwire.hop.core import HopRecord

__all__ = ["BUCKETS", "Metrics"]

BUCKETS: tuple[float, ...] = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300)
"""Upper bounds (seconds) of the duration histogram's buckets."""

_Labels = tuple[tuple[str, str], ...]


def _labels(labels: _Labels) -> str:
    if not labels:
        return ""
    inner = ",".join(f'{k}="{_escape(v)}"' for k, v in labels)
    return "{" + inner + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


@dataclass
class _Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, value)] += 1
        self.total += value


class Metrics:
    """The gateway's counters; :meth:`observe` takes one finished call, :meth:`render` the page."""

    def __init__(self) -> None:
        self.requests: dict[_Labels, int] = defaultdict(int)
        self.durations: dict[_Labels, _Histogram] = defaultdict(_Histogram)
        self.errors: dict[_Labels, int] = defaultdict(int)
        self.tokens: dict[str, int] = defaultdict(int)
        self.traces: dict[str, int] = defaultdict(int)
        self.open_streams = 0

    def observe(self, record: HopRecord, seconds: float) -> None:
        """Count one finished call."""
        client = record.client or "none"
        upstream = record.upstream or "none"
        self.requests[(("client", client), ("upstream", upstream), ("status", str(record.status)))] += 1
        self.durations[(("client", client), ("upstream", upstream))].observe(seconds)
        if record.error is not None and record.upstream is not None:
            self.errors[(("upstream", upstream), ("error", record.error))] += 1
        for direction, count in (("input", record.input_tokens), ("output", record.output_tokens)):
            if count:
                self.tokens[direction] += count

    def render(self) -> str:
        """The exposition text."""
        lines: list[str] = []
        prefix = "toolwire_gateway_"
        lines += [
            f"# HELP {prefix}requests_total Requests answered.",
            f"# TYPE {prefix}requests_total counter",
        ]
        lines += [f"{prefix}requests_total{_labels(k)} {v}" for k, v in sorted(self.requests.items())]
        name = f"{prefix}request_duration_seconds"
        lines += [f"# HELP {name} Time to the answer's last byte.", f"# TYPE {name} histogram"]
        for labels, hist in sorted(self.durations.items()):
            running = 0
            for bound, count in zip((*BUCKETS, float("inf")), hist.counts, strict=True):
                running += count
                le = "+Inf" if bound == float("inf") else f"{bound:g}"
                lines.append(f"{name}_bucket{_labels((*labels, ('le', le)))} {running}")
            lines.append(f"{name}_sum{_labels(labels)} {hist.total:.6f}")
            lines.append(f"{name}_count{_labels(labels)} {running}")
        name = f"{prefix}upstream_errors_total"
        lines += [f"# HELP {name} Calls that failed upstream.", f"# TYPE {name} counter"]
        lines += [f"{name}{_labels(k)} {v}" for k, v in sorted(self.errors.items())]
        name = f"{prefix}open_streams"
        lines += [
            f"# HELP {name} Streams being relayed.",
            f"# TYPE {name} gauge",
            f"{name} {self.open_streams}",
        ]
        name = f"{prefix}tokens_total"
        lines += [f"# HELP {name} Tokens reported by upstreams.", f"# TYPE {name} counter"]
        lines += [f'{name}{{direction="{d}"}} {n}' for d, n in sorted(self.tokens.items())]
        if self.traces:
            name = f"{prefix}traces_total"
            lines += [f"# HELP {name} Call traces by outcome.", f"# TYPE {name} counter"]
            lines += [f'{name}{{outcome="{o}"}} {n}' for o, n in sorted(self.traces.items())]
        return "\n".join(lines) + "\n"
