"""Structured logs (JSON lines by default) with key-value fields, each line of a request
carrying its request id."""

import logging
import re
import sys
import uuid
from typing import TextIO

import structlog
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID_HEADER = "X-Request-ID"
# A client's own request id is kept when it is short and plain (a UUID, a trace id);
# anything else could forge log fields or flood them, and is replaced by one of ours.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")

# Run for structlog's lines and for those of the standard library's loggers alike: the
# fields bound to the request (its id) join every line logged while it runs.
SHARED: list[structlog.types.Processor] = [
    structlog.contextvars.merge_contextvars,
    structlog.stdlib.add_logger_name,
    structlog.processors.add_log_level,
    structlog.processors.TimeStamper(fmt="iso", utc=True),
]

# structlog hands every line to the standard library's logging from the start, so lines
# logged before configure_logging (a command, a test) reach the same handlers.
structlog.configure(
    processors=[*SHARED, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
    logger_factory=structlog.stdlib.LoggerFactory(),
    wrapper_class=structlog.stdlib.BoundLogger,
    cache_logger_on_first_use=True,
)


def get_logger(name: str) -> structlog.stdlib.BoundLogger:
    """A logger taking key-value fields: log.info("event happened", thing=..., count=...)."""
    return structlog.stdlib.get_logger(name)


class _CurrentStderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever sys.stderr is at the time (test runners replace it)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, _: object) -> None:
        pass


def configure_logging(json_lines: bool) -> None:
    renderer: list[structlog.types.Processor] = (
        # JSON carries the traceback as text; the console renderer formats it itself.
        [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
        if json_lines
        else [structlog.dev.ConsoleRenderer()]
    )
    handler = _CurrentStderr()
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=SHARED,
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *renderer],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    for noisy in ("uvicorn.access",):
        logging.getLogger(noisy).handlers[:] = []
        logging.getLogger(noisy).propagate = False


def request_id_of(headers: Headers) -> str:
    """The client's X-Request-ID when it is sane, else a new one."""
    given = headers.get(REQUEST_ID_HEADER, "")
    return given if SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


class RequestId:
    """Binds the request's id into every log line logged while it runs, and answers it in
    X-Request-ID (outermost, so refusals by the other middlewares carry it too)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = request_id_of(Headers(scope=scope))

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)[REQUEST_ID_HEADER] = request_id
            await send(message)

        tokens = structlog.contextvars.bind_contextvars(request_id=request_id)
        # Left bound when the request fails: the error handler, outside every middleware,
        # logs the failure and answers it with this id too.
        await self.app(scope, receive, send_with_id)
        structlog.contextvars.reset_contextvars(**tokens)


def current_request_id() -> str | None:
    request_id = structlog.contextvars.get_contextvars().get("request_id")
    return request_id if isinstance(request_id, str) else None
