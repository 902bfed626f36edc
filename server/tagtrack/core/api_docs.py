"""The interactive API docs at /api/docs: Swagger UI served by this server (the console build
copies it into web/dist/swagger-ui), so they work without internet access and under a
policy that allows scripts from this origin only."""

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

DOCS_URL = "/api/docs"
ASSETS_URL = f"{DOCS_URL}/ui"

PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>TagTrack API</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="{ASSETS_URL}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="{ASSETS_URL}/swagger-ui-bundle.js"></script>
<script src="{DOCS_URL}/init.js"></script>
</body>
</html>
"""
# In a file of its own rather than inline: the docs' policy allows no inline script.
INIT = """window.ui = SwaggerUIBundle({
  url: "/api/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  // One line per tag to begin with: the API has over a hundred operations.
  docExpansion: "none",
  showExtensions: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"""


def install_api_docs(app: FastAPI, dist: Path) -> None:
    """The docs page, its start script and Swagger UI's files; before the API's catch-all."""

    @app.get(DOCS_URL, include_in_schema=False)
    async def docs_page() -> HTMLResponse:
        return HTMLResponse(PAGE)

    @app.get(f"{DOCS_URL}/init.js", include_in_schema=False)
    async def docs_init() -> Response:
        return Response(INIT, media_type="text/javascript")

    assets = dist / "swagger-ui"
    if assets.is_dir():
        app.mount(ASSETS_URL, StaticFiles(directory=assets), name="swagger-ui")
