"""The built console's assets: precompressed when the browser takes it, cached for good."""

import mimetypes
import os

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

# The build names every file under assets/ after a hash of its content, so a file never
# changes under its name: browsers may keep it a year without asking again.
IMMUTABLE = "public, max-age=31536000, immutable"
# Best first. The build writes `name.br` and `name.gz` beside each compressible asset.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted_encodings(header: str) -> set[str]:
    """The codings an Accept-Encoding header allows (any not weighted q=0)."""
    accepted = set()
    for part in header.split(","):
        name, *params = (piece.strip() for piece in part.split(";"))
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if name and quality > 0:
            accepted.add(name.lower())
    return accepted


class HashedAssets(StaticFiles):
    """Serves `name.br` or `name.gz` in place of `name` when the browser accepts the coding."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        request_headers = Headers(scope=scope)
        headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding"}
        response = self._precompressed(full_path, request_headers, headers, status_code)
        if response is None:
            response = FileResponse(
                full_path, status_code=status_code, stat_result=stat_result, headers=headers
            )
        if self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response

    @staticmethod
    def _precompressed(
        full_path: PathLike, request_headers: Headers, headers: dict[str, str], status_code: int
    ) -> FileResponse | None:
        accepted = accepted_encodings(request_headers.get("accept-encoding", ""))
        media_type = mimetypes.guess_type(os.fspath(full_path))[0] or "application/octet-stream"
        for coding, suffix in ENCODINGS:
            if coding not in accepted:
                continue
            sibling = f"{os.fspath(full_path)}{suffix}"
            try:
                stat_result = os.stat(sibling)
            except OSError:
                continue
            return FileResponse(
                sibling,
                status_code=status_code,
                stat_result=stat_result,
                media_type=media_type,
                headers={**headers, "Content-Encoding": coding},
            )
        return None
