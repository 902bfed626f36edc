"""Typed errors; every failure answers {"reason", "message"}."""

from collections.abc import Iterable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException as StarletteHTTPException

from tagtrack.core.logging import REQUEST_ID_HEADER, current_request_id, get_logger
from tagtrack.core.web_security import API_CSP, COMMON_HEADERS

log = get_logger("tagtrack.errors")


class ErrorBody(BaseModel):
    reason: str
    message: str


class AppError(Exception):
    status_code = 400
    reason = "bad request"
    headers: dict[str, str] | None = None

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if reason is not None:
            self.reason = reason


class BadRequest(AppError):
    status_code = 400
    reason = "bad request"


class Unauthorized(AppError):
    status_code = 401
    reason = "unauthorized"


class Forbidden(AppError):
    status_code = 403
    reason = "forbidden"


class NotFound(AppError):
    status_code = 404
    reason = "not found"


class PayloadTooLarge(AppError):
    status_code = 413
    reason = "too large"


class UnsupportedMediaType(AppError):
    status_code = 415
    reason = "unsupported type"


class ValidationFailed(AppError):
    status_code = 422
    reason = "validation"


class Overloaded(AppError):
    """The server is behind; the client should retry after a pause."""

    status_code = 429
    reason = "overloaded"

    def __init__(self, message: str, *, retry_after_seconds: int) -> None:
        super().__init__(message)
        self.headers = {"Retry-After": str(retry_after_seconds)}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Bad request"},
    401: {"model": ErrorBody, "description": "Not signed in"},
    403: {"model": ErrorBody, "description": "Not allowed"},
    404: {"model": ErrorBody, "description": "Not found (also another organization's resource)"},
    422: {"model": ErrorBody, "description": "Invalid input"},
}


def _body(reason: str, message: str) -> dict[str, str]:
    return {"reason": reason, "message": message}


def describe_errors(errors: Iterable[Mapping[str, Any]]) -> str:
    """Pydantic's errors as one line: `field: problem; field: problem`."""
    parts = []
    for err in errors:
        loc = [str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path")]
        where = ".".join(loc) or "request"
        # Shown to users as is: say "is required" and drop pydantic's "Value error, " prefix.
        if err.get("type") == "missing":
            text = "is required"
        else:
            text = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{where}: {text}")
    return "; ".join(parts) or "Invalid request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def app_error(_: Request, exc: AppError) -> JSONResponse:
        return JSONResponse(
            _body(exc.reason, exc.message), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(_body("validation", describe_errors(exc.errors())), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        reason = {404: "not found", 405: "method not allowed"}.get(exc.status_code, "error")
        return JSONResponse(
            _body(reason, str(exc.detail)), status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(DBAPIError)
    async def database_error(_: Request, exc: DBAPIError) -> JSONResponse:
        sqlstate = str(getattr(exc.orig, "sqlstate", "") or "")
        # A concurrent request took the same unique value after our check passed.
        if sqlstate == "23505":
            return JSONResponse(
                _body("duplicate", "That value is already in use (duplicate)"), status_code=400
            )
        # Class 22 is a value PostgreSQL refuses (a NUL character, say): bad input.
        if sqlstate.startswith("22"):
            return JSONResponse(
                _body("invalid input", "The request holds a value that cannot be stored"),
                status_code=400,
            )
        return _internal(exc)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        return _internal(exc)


def _internal(exc: Exception) -> JSONResponse:
    log.exception("unhandled error", exc_info=exc)
    # Sent past every middleware, so it carries the API's security headers itself.
    headers = {**COMMON_HEADERS, "Content-Security-Policy": API_CSP, "Cache-Control": "no-store"}
    request_id = current_request_id()
    if request_id is not None:
        headers[REQUEST_ID_HEADER] = request_id
    return JSONResponse(
        _body("internal", "Internal server error"), status_code=500, headers=headers
    )
