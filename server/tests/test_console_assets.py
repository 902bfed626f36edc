"""The console's built assets: the precompressed copy the browser accepts, cached for good."""

import gzip
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Mount

from tagtrack.core.config import Settings
from tagtrack.core.static import IMMUTABLE, HashedAssets, accepted_encodings
from tagtrack.main import create_app
from tests.conftest import make_client

SCRIPT = b"export const answer = 42;\n" * 100
GZIPPED = gzip.compress(SCRIPT, mtime=0)


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A built console: one script with both compressed copies, one stylesheet with none."""
    assets = tmp_path / "assets"
    assets.mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>TagTrack</title>")
    (assets / "index-abc123.js").write_bytes(SCRIPT)
    (assets / "index-abc123.js.br").write_bytes(b"brotli bytes")
    (assets / "index-abc123.js.gz").write_bytes(GZIPPED)
    (assets / "index-abc123.css").write_text("body { margin: 0 }")
    return tmp_path


@pytest.fixture
async def assets(dist: Path) -> AsyncIterator[httpx.AsyncClient]:
    app = Starlette(routes=[Mount("/assets", HashedAssets(directory=dist / "assets"))])
    async with make_client(app) as client:
        yield client


async def raw(client: httpx.AsyncClient, path: str, accept: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent, without httpx undoing the content coding."""
    async with client.stream("GET", path, headers={"Accept-Encoding": accept}) as response:
        return response, b"".join([chunk async for chunk in response.aiter_raw()])


def test_accepted_encodings_leave_out_refused_ones() -> None:
    assert accepted_encodings("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert accepted_encodings("br;q=0, GZIP;q=0.5") == {"gzip"}
    assert accepted_encodings("br; q=0.0, gzip; q=bad") == set()
    assert accepted_encodings("") == set()


@pytest.mark.parametrize(
    ("accept", "coding", "body"),
    [
        ("gzip, deflate, br, zstd", "br", b"brotli bytes"),
        ("gzip, deflate", "gzip", GZIPPED),
        ("br;q=0, gzip", "gzip", GZIPPED),
        ("identity", None, SCRIPT),
    ],
)
async def test_a_script_comes_in_the_best_coding_the_browser_accepts(
    assets: httpx.AsyncClient, accept: str, coding: str | None, body: bytes
) -> None:
    response, sent = await raw(assets, "/assets/index-abc123.js", accept)
    assert response.status_code == 200
    assert response.headers.get("content-encoding") == coding
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["content-length"] == str(len(body))
    assert response.headers["cache-control"] == IMMUTABLE
    assert response.headers["vary"] == "Accept-Encoding"
    assert sent == body


async def test_an_asset_without_compressed_copies_is_sent_as_it_is(
    assets: httpx.AsyncClient,
) -> None:
    response, sent = await raw(assets, "/assets/index-abc123.css", "gzip, br")
    assert "content-encoding" not in response.headers
    assert response.headers["content-type"].startswith("text/css")
    assert response.headers["cache-control"] == IMMUTABLE
    assert sent == b"body { margin: 0 }"


async def test_a_revalidation_of_a_compressed_copy_answers_not_modified(
    assets: httpx.AsyncClient,
) -> None:
    first = await assets.get("/assets/index-abc123.js", headers={"Accept-Encoding": "br"})
    again = await assets.get(
        "/assets/index-abc123.js",
        headers={"Accept-Encoding": "br", "If-None-Match": first.headers["etag"]},
    )
    assert again.status_code == 304
    missing = await assets.get("/assets/index-zzz999.js", headers={"Accept-Encoding": "br"})
    assert missing.status_code == 404


async def test_the_app_serves_assets_compressed_and_the_page_uncached(
    database_url: str, settings: Settings, dist: Path
) -> None:
    app = create_app(settings.model_copy(update={"web_dist": dist}), database_url=database_url)
    async with app.router.lifespan_context(app), make_client(app) as client:
        script, sent = await raw(client, "/assets/index-abc123.js", "gzip, deflate, br")
        assert script.headers["content-encoding"] == "br"
        assert script.headers["cache-control"] == IMMUTABLE
        assert "script-src 'self'" in script.headers["content-security-policy"]
        assert sent == b"brotli bytes"
        page = await client.get("/events", headers={"Accept-Encoding": "gzip, br"})
        assert page.headers["cache-control"] == "no-cache"
        assert page.text.startswith("<!doctype html>")
