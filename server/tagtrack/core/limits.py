"""Refuse request bodies over a size limit before they are read into memory."""

import re
from collections.abc import Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tagtrack.core.web_security import send_error

MAX_JSON_BODY = 2 * 1024 * 1024


class BodySizeLimit:
    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int = MAX_JSON_BODY,
        routes: Mapping[tuple[str, str], int] | None = None,
    ) -> None:
        """`routes` raises (or lowers) the limit for (method, path) pairs, e.g. uploads;
        a `*` in a path stands for one path segment."""
        self.app = app
        self.max_bytes = max_bytes
        self.routes = {key: v for key, v in (routes or {}).items() if "*" not in key[1]}
        self.patterns = [
            (method, re.compile("^" + re.escape(path).replace(r"\*", "[^/]+") + "$"), v)
            for (method, path), v in (routes or {}).items()
            if "*" in path
        ]

    def _limit(self, method: str, path: str) -> int:
        path = path.rstrip("/")
        if (method, path) in self.routes:
            return self.routes[(method, path)]
        for pattern_method, pattern, limit in self.patterns:
            if pattern_method == method and pattern.match(path):
                return limit
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["method"], scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, limit)
            return
        received = 0
        too_large = False
        started = False

        async def counting_receive() -> Message:
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # Stop feeding the app; its answer is replaced by a 413 below.
                    too_large = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_large:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except Exception:
            if not too_large:
                raise
        if too_large and not started:
            await self._refuse(send, limit)

    async def _refuse(self, send: Send, limit: int) -> None:
        await send_error(
            send, 413, "too large", f"Request body is over {limit // (1024 * 1024)} MiB"
        )
