"""Browser-facing defences: security headers on every answer, cross-site request refusal,
and what a trusted reverse proxy tells us about the client."""

import json
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tagtrack.core.text import comma_list

# The console: scripts and styles from this origin only; MUI injects its styles at run time.
CONSOLE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
# API answers are data, never a page: an uploaded SVG opened directly runs nothing.
API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"
# The interactive API docs: Swagger UI from this origin; its start script is a file too.
DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)
COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
HSTS = "max-age=31536000; includeSubDomains"
SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


def parse_proxies(value: str) -> frozenset[str]:
    return frozenset(comma_list(value))


def _from_trusted_proxy(scope: Scope, trusted: frozenset[str]) -> bool:
    client = scope.get("client")
    return client is not None and client[0] in trusted


def scope_is_https(scope: Scope, trusted: frozenset[str]) -> bool:
    """HTTPS at the server, or at a trusted proxy that says so. Anyone else's header is ignored."""
    if scope.get("scheme") == "https":
        return True
    if not _from_trusted_proxy(scope, trusted):
        return False
    proto = Headers(scope=scope).get("x-forwarded-proto", "")
    return proto.split(",")[0].strip().lower() == "https"


def client_address(request: Request) -> str:
    """The caller's address; behind a trusted proxy, the one it received the request from."""
    peer = request.client.host if request.client else ""
    trusted = parse_proxies(request.app.state.settings.trusted_proxies)
    forwarded = request.headers.get("x-forwarded-for", "")
    if forwarded and peer in trusted:
        # The right-most address is the one the trusted proxy saw; the rest is client-written.
        return forwarded.split(",")[-1].strip() or peer
    return peer


def request_is_https(request: Request) -> bool:
    settings = request.app.state.settings
    return bool(settings.cookie_secure) or scope_is_https(
        request.scope, parse_proxies(settings.trusted_proxies)
    )


def csp_for(path: str) -> str:
    if path.startswith("/api/docs"):
        return DOCS_CSP
    if path.startswith("/api/") or path in ("/healthz", "/metrics"):
        return API_CSP
    return CONSOLE_CSP


class SecurityHeaders:
    """Adds the security headers to every answer, errors and refusals included."""

    def __init__(self, app: ASGIApp, trusted_proxies: str = "") -> None:
        self.app = app
        self.trusted = parse_proxies(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        https = scope_is_https(scope, self.trusted)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in COMMON_HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("Content-Security-Policy", csp_for(path))
                if path.startswith("/api"):
                    headers.setdefault("Cache-Control", "no-store")
                if https:
                    headers.setdefault("Strict-Transport-Security", HSTS)
            await send(message)

        await self.app(scope, receive, with_headers)


class SameOriginWrites:
    """Refuses state-changing API calls a browser makes for another site (CSRF).

    Browsers say where a request comes from (Sec-Fetch-Site, else Origin); the console's own
    calls are same-origin. Calls with a Bearer token (API keys, readers) carry no ambient
    credentials and are not checked, nor are non-browser clients that send neither header.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in SAFE_METHODS
            and scope["path"].startswith("/api/")
            and self._cross_site(Headers(scope=scope))
        ):
            await _refuse(send)
            return
        await self.app(scope, receive, send)

    @staticmethod
    def _cross_site(headers: Headers) -> bool:
        if headers.get("authorization", "").lower().startswith("bearer "):
            return False
        fetch_site = headers.get("sec-fetch-site")
        if fetch_site is not None:
            return fetch_site not in ("same-origin", "none")
        origin = headers.get("origin")
        if origin is None:
            return False
        return (
            origin == "null" or urlsplit(origin).netloc.lower() != headers.get("host", "").lower()
        )


async def _refuse(send: Send) -> None:
    await send_error(send, 403, "cross site", "Requests from another site are refused")


async def send_error(send: Send, status: int, reason: str, message: str) -> None:
    """Answer {reason, message} straight from an ASGI middleware."""
    body = json.dumps({"reason": reason, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
