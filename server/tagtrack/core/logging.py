"""Structured logs (JSON lines by default) and request metrics."""

import logging
import sys
import time
from collections.abc import Awaitable, Callable
from typing import TextIO

import structlog
from prometheus_client import Counter, Histogram
from starlette.requests import Request
from starlette.responses import Response

REQUESTS = Counter("tagtrack_http_requests_total", "HTTP requests", ["method", "route", "status"])
LATENCY = Histogram("tagtrack_http_request_seconds", "HTTP request latency", ["method", "route"])


class _CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever sys.stderr is at the time (test runners replace it)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _: object) -> None:
        pass


def configure_logging(json_lines: bool) -> None:
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer() if json_lines else structlog.dev.ConsoleRenderer()
    )
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=True,
    )
    handler = _CurrentStderr()
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).handlers[:] = []
        logging.getLogger(noisy).propagate = False


access_log = structlog.get_logger("tagtrack.access")


async def observe_request(
    request: Request, call_next: Callable[[Request], Awaitable[Response]]
) -> Response:
    started = time.perf_counter()
    status = 500
    try:
        response = await call_next(request)
        status = response.status_code
        return response
    finally:
        route = request.scope.get("route")
        path = getattr(route, "path", "unmatched")
        # Routes of nested routers report their path without the /api prefix.
        if request.url.path.startswith("/api/") and not path.startswith("/api"):
            path = "/api" + path
        elapsed = time.perf_counter() - started
        REQUESTS.labels(request.method, path, str(status)).inc()
        LATENCY.labels(request.method, path).observe(elapsed)
        if request.url.path.startswith("/api"):
            access_log.info(
                "request",
                method=request.method,
                path=request.url.path,
                status=status,
                ms=round(elapsed * 1000, 1),
            )
