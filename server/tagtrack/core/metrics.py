"""Prometheus metrics of every process of an installation, and the request metrics.

`tagtrack serve` gives each run a directory of its own (PROMETHEUS_MULTIPROC_DIR, set before
this module is first imported) that the serving process and its processing child write
their samples to; /metrics adds them all up. Any metric defined anywhere with
prometheus_client lands there too. Without that directory (tests, an embedding app) the
metrics are this process's own.
"""

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client import multiprocess as prometheus_multiprocess
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tagtrack.core.logging import get_logger
from tagtrack.models.base import utcnow

MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"

HTTP_REQUESTS = Counter(
    "tagtrack_http_requests_total", "HTTP requests", ["method", "route", "status"]
)
HTTP_LATENCY = Histogram(
    "tagtrack_http_request_seconds", "HTTP request latency", ["method", "route"]
)
INGEST_ACCEPTED = Counter(
    "tagtrack_ingest_reads_accepted_total",
    "Reads acknowledged to readers and queued for processing, by channel (http, user, mqtt)",
    ["channel"],
)
INGEST_REFUSED = Counter(
    "tagtrack_ingest_refused_total",
    "Ingest requests or MQTT messages refused for now (HTTP 429; MQTT held back), by channel "
    "and cause (backlog: processing is behind; busy: too many requests at once)",
    ["channel", "cause"],
)
BATCH_READS = Histogram(
    "tagtrack_processing_batch_reads",
    "Reads in each processed batch",
    buckets=(1, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 20000, 50000),
)
BATCH_SECONDS = Histogram(
    "tagtrack_processing_batch_seconds",
    "Time to process one batch of reads",
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
MQTT_CONNECTED = Gauge(
    "tagtrack_mqtt_connected",
    "1 while subscribed to the MQTT broker, else 0",
    ["broker"],
    multiprocess_mode="livemax",
)
MQTT_MESSAGES = Counter(
    "tagtrack_mqtt_messages_total",
    "MQTT messages taken from the broker, by kind (reads, status) and outcome "
    "(stored; rejected: bad payload or unknown endpoint; ignored: unexpected topic)",
    ["kind", "outcome"],
)
LIVE_STREAMS = Gauge(
    "tagtrack_live_streams",
    "Open live update streams (consoles watching)",
    multiprocess_mode="livesum",
)

access_log = get_logger("tagtrack.access")


@dataclass(frozen=True)
class Backlog:
    """The acknowledged reads waiting for processing, as the database has them now."""

    reads: int
    oldest: datetime | None


class _BacklogCollector:
    """The backlog gauges, read from the database at each scrape: they tell the truth even
    when processing has stopped."""

    def __init__(self, backlog: Backlog | None) -> None:
        self.backlog = backlog

    def collect(self) -> Iterable[Metric]:
        if self.backlog is None:  # the database did not answer
            return
        lag = 0.0
        if self.backlog.oldest is not None:
            lag = max(0.0, (utcnow() - self.backlog.oldest).total_seconds())
        yield GaugeMetricFamily(
            "tagtrack_pending_reads",
            "Acknowledged reads waiting to be processed (all organizations)",
            value=self.backlog.reads,
        )
        yield GaugeMetricFamily(
            "tagtrack_processing_lag_seconds",
            "Age of the oldest read waiting to be processed (0: none waiting)",
            value=lag,
        )


class _ThisProcess:
    def collect(self) -> Iterable[Metric]:
        return REGISTRY.collect()


def multiprocess() -> bool:
    return bool(os.environ.get(MULTIPROCESS_DIR))


def exposition(backlog: Backlog | None) -> bytes:
    """The text /metrics answers: every process's samples and the backlog."""
    registry = CollectorRegistry(auto_describe=False)
    if multiprocess():
        prometheus_multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    else:
        registry.register(_ThisProcess())
    registry.register(_BacklogCollector(backlog))
    return generate_latest(registry)


def process_gone(pid: int) -> None:
    """Drop a finished child's live gauges (its counters and histograms keep counting)."""
    if multiprocess():
        prometheus_multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


class RequestMetrics:
    """Counts and times every request, and logs each API call (plain ASGI: a call costs no
    task and no stream of its own, as a BaseHTTPMiddleware's does)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            _observe(scope, status, time.perf_counter() - started)


def _observe(scope: Scope, status: int, elapsed: float) -> None:
    method, url_path = scope["method"], Request(scope).url.path
    path = getattr(scope.get("route"), "path", "unmatched")
    # Routes of nested routers report their path without the /api prefix.
    if url_path.startswith("/api/") and not path.startswith("/api"):
        path = "/api" + path
    HTTP_REQUESTS.labels(method, path, str(status)).inc()
    HTTP_LATENCY.labels(method, path).observe(elapsed)
    if url_path.startswith("/api"):
        access_log.info(
            "request", method=method, path=url_path, status=status, ms=round(elapsed * 1000, 1)
        )
