"""create_app(): the API under /api and the built console at /."""

from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.formparsers import MultiPartParser

from tagtrack import __version__
from tagtrack.access.cache import PrincipalCache, principal_cache
from tagtrack.apikeys.router import router as apikeys_router
from tagtrack.audit.router import router as audit_router
from tagtrack.auth.router import router as auth_router
from tagtrack.categories.router import pickers as categories_pickers_router
from tagtrack.categories.router import router as categories_router
from tagtrack.core.api_docs import install_api_docs
from tagtrack.core.config import Settings, get_settings
from tagtrack.core.db import (
    create_engine,
    create_sessionmaker,
    fill_pool,
    resolve_database_url,
)
from tagtrack.core.errors import NotFound, install_error_handlers
from tagtrack.core.housekeeping import housekeeping
from tagtrack.core.limits import BodySizeLimit
from tagtrack.core.logging import RequestId, configure_logging
from tagtrack.core.metrics import RequestMetrics
from tagtrack.core.partitions import ensure_partitions_logged
from tagtrack.core.signing import load_install_secret
from tagtrack.core.static import HashedAssets
from tagtrack.core.wakeups import MAIL_CHANNEL, Wakeups, listening
from tagtrack.core.web_security import SameOriginWrites, SecurityHeaders
from tagtrack.core.workers import SharedStatus, settle_heap, worker_count
from tagtrack.demo.seed import SITES as DEMO_SITES
from tagtrack.demo.simulator import running_simulator
from tagtrack.endpoints.router import router as endpoints_router
from tagtrack.events.repository import EventRepository
from tagtrack.events.router import router as events_router
from tagtrack.exceptions.router import router as exceptions_router
from tagtrack.images.processing import MAX_UPLOAD_BYTES
from tagtrack.images.router import router as images_router
from tagtrack.images.storage import storage_from_settings
from tagtrack.imports.router import router as imports_router
from tagtrack.imports.workbook import MAX_FILE_BYTES as MAX_WORKBOOK_BYTES
from tagtrack.ingest.mqtt import MqttSubscriber, mqtt_subscriber
from tagtrack.ingest.openapi import payload_schemas
from tagtrack.ingest.router import router as ingest_router
from tagtrack.ingest.router import user_router as user_reads_router
from tagtrack.ingest.service import Admission
from tagtrack.kit.routing import copy_routes
from tagtrack.live.hub import LiveHub, live_listener
from tagtrack.live.router import router as live_router
from tagtrack.locationtags.router import router as locationtags_router
from tagtrack.mail.sender import OutboxSender, outbox_sender
from tagtrack.maps.router import router as maps_router
from tagtrack.meta.router import probes
from tagtrack.meta.router import router as meta_router
from tagtrack.models.base import utcnow
from tagtrack.organizations.router import router as organizations_router
from tagtrack.passwords.router import router as passwords_router
from tagtrack.processing.process import ProcessingProcess, processing_process
from tagtrack.processing.router import router as manual_events_router
from tagtrack.processing.worker import ProcessingWorker, processing_worker
from tagtrack.reports.daily import daily_jobs
from tagtrack.reports.router import pickers as reports_pickers_router
from tagtrack.reports.router import router as reports_router
from tagtrack.roles.router import router as roles_router
from tagtrack.settings.router import router as settings_router
from tagtrack.sites.router import pickers as sites_pickers_router
from tagtrack.sites.router import router as sites_router
from tagtrack.sso.router import router as sso_router
from tagtrack.things.router import pickers as things_pickers_router
from tagtrack.things.router import router as things_router
from tagtrack.users.router import router as users_router
from tagtrack.zones.router import durations as zone_durations_router
from tagtrack.zones.router import pickers as zones_pickers_router
from tagtrack.zones.router import router as zones_router

# The API's routers in the order the schema documents them.
DOCUMENTED = (
    auth_router,
    users_router,
    passwords_router,
    roles_router,
    organizations_router,
    apikeys_router,
    sso_router,
    audit_router,
    sites_router,
    settings_router,
    endpoints_router,
    zones_router,
    locationtags_router,
    maps_router,
    things_router,
    images_router,
    categories_router,
    categories_pickers_router,
    # The lookups, each from its feature, in one place of the schema.
    sites_pickers_router,
    zones_pickers_router,
    things_pickers_router,
    reports_pickers_router,
    meta_router,
    ingest_router,
    user_reads_router,
    events_router,
    manual_events_router,
    zone_durations_router,
    live_router,
    exceptions_router,
    reports_router,
    imports_router,
)
# Tried first: a request is matched against each route in turn (a millisecond for the last of
# two hundred), and these answer the calls that come all day, readers' reads and the Events
# page's polls. No path of theirs is also another router's.
BUSIEST = (ingest_router, events_router)


async def _prepare_statements(session: AsyncSession) -> None:
    """The statements every open console runs every few seconds."""
    await EventRepository(session).prepare()


def install_api(app: FastAPI) -> None:
    """The API's routes and the probes, in the application's own list of routes."""
    for router in (*BUSIEST, *(r for r in DOCUMENTED if r not in BUSIEST)):
        copy_routes(router, app.router, prefix="/api")

    @app.api_route(
        "/api/{path:path}", methods=["GET", "POST", "PUT", "DELETE"], include_in_schema=False
    )
    async def unknown_api(path: str) -> None:
        raise NotFound(f"No API route /api/{path}")

    copy_routes(probes, app.router)


def _demo_simulator(
    sessionmaker: async_sessionmaker[AsyncSession], settings: Settings
) -> AbstractAsyncContextManager[None]:
    """Demo mode feeds this server's own ingest API with simulated readers of the demo sites
    (sites added later keep only the reads of their real readers)."""
    if not settings.demo:
        return nullcontext()
    demo_sites = [spec["name"] for spec in DEMO_SITES]
    return running_simulator(sessionmaker, f"http://127.0.0.1:{settings.port}", demo_sites)


def _processing(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    database_url: str,
    wakeups: Wakeups,
) -> AbstractAsyncContextManager[ProcessingWorker | ProcessingProcess]:
    """Processing of acknowledged reads: in a child process, in this event loop, or not here."""
    if settings.processing and settings.processing_process:
        return processing_process(database_url, settings)
    return processing_worker(sessionmaker, settings, wakeups)


def _mount_console(app: FastAPI, dist: Path) -> None:
    index = dist / "index.html"
    if not index.is_file():
        return
    app.mount("/assets", HashedAssets(directory=dist / "assets"), name="assets")

    # The built console does not change while the server runs: its files are listed once,
    # so a request neither touches the disk nor can name a path outside the build.
    files = {
        path.relative_to(dist).as_posix(): path
        for path in dist.rglob("*")
        if path.is_file() and path != index and not path.is_relative_to(dist / "assets")
    }

    @app.get("/{path:path}", include_in_schema=False)
    async def console(path: str) -> FileResponse:
        found = files.get(path)
        if found is not None:
            return FileResponse(found)
        # Client-side routes all load the single page.
        return FileResponse(index, headers={"Cache-Control": "no-cache"})


def _document_schemas(app: FastAPI, schemas: dict[str, Any]) -> None:
    """Adds the schemas that routes reading their body raw name in openapi_extra, and lists
    the paths in the documented order (not the order requests are matched in)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            schema.setdefault("components", {}).setdefault("schemas", {}).update(schemas)
            documented = [
                "/api" + route.path
                for router in DOCUMENTED
                for route in router.routes
                if isinstance(route, APIRoute)
            ]
            rank: dict[str, int] = {}
            for n, path in enumerate(documented):
                rank.setdefault(path, n)
            paths = schema.get("paths", {})
            schema["paths"] = dict(
                sorted(paths.items(), key=lambda item: rank.get(item[0], len(rank)))
            )
        return app.openapi_schema or {}

    app.openapi = openapi  # type: ignore[method-assign]


@asynccontextmanager
async def singletons(
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    url: str,
    admission: Admission,
) -> AsyncIterator[
    tuple[ProcessingWorker | ProcessingProcess, MqttSubscriber | None, OutboxSender | None]
]:
    """The background work an installation runs once, whatever the number of HTTP workers:
    processing, clean-up, mail, daily jobs, the MQTT subscription and the demo simulator."""
    wakeups = Wakeups()
    async with (
        housekeeping(sessionmaker),
        _processing(sessionmaker, settings, url, wakeups) as worker,
        outbox_sender(sessionmaker, settings, wakeups.event(MAIL_CHANNEL)) as sender,
        listening(wakeups, url),
        daily_jobs(sessionmaker, settings),
        mqtt_subscriber(sessionmaker, settings, admission) as subscriber,
        _demo_simulator(sessionmaker, settings),
    ):
        yield worker, subscriber, sender


def create_app(
    settings: Settings | None = None,
    database_url: str | None = None,
    shared: SharedStatus | None = None,
) -> FastAPI:
    """The whole server in this process; given the supervisor's shared status, one HTTP worker
    of several, whose background work the supervisor runs once for all."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = database_url or resolve_database_url(settings.database_url, settings.data_dir)
        engine = create_engine(url, settings.database_pool_size)
        app.state.engine = engine
        app.state.sessionmaker = create_sessionmaker(engine)
        secret = settings.secret_key or await load_install_secret(app.state.sessionmaker)
        await ensure_partitions_logged(app.state.sessionmaker, utcnow())
        app.state.settings = settings.model_copy(update={"secret_key": secret})
        try:
            async with (
                principal_cache(app.state.principals, engine, url),
                live_listener(app.state.live, url),
            ):
                if shared is not None:
                    app.state.processing = shared.processing
                    app.state.mqtt = shared.mqtt if settings.mqtt_url else None
                    app.state.mail_sender = None
                    await fill_pool(engine, _prepare_statements, worker_count(settings))
                    settle_heap()
                    yield
                    return
                async with singletons(
                    app.state.sessionmaker, settings, url, app.state.admission
                ) as (worker, subscriber, sender):
                    app.state.processing = worker
                    app.state.mqtt = subscriber
                    app.state.mail_sender = sender
                    yield
        finally:
            await engine.dispose()

    configure_logging(settings.log_json)
    app = FastAPI(
        title="TagTrack",
        version=__version__,
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url=None,  # served by install_api_docs from this server's own files
        redoc_url=None,
        description=(
            "TagTrack API. Lists return a JSON array with the total in the x-total-count "
            "header; errors answer {reason, message}; ids are 24 hex characters."
        ),
    )
    app.state.settings = settings
    app.state.admission = Admission(pool_size=settings.database_pool_size)
    app.state.live = LiveHub()
    app.state.principals = PrincipalCache()
    app.state.storage = storage_from_settings(settings)
    install_error_handlers(app)
    app.add_middleware(RequestMetrics)
    # Photo uploads may be larger than any JSON body: the file plus the multipart framing.
    upload_limit = MAX_UPLOAD_BYTES + 1024**2
    # Uploads are read whole into memory to be checked: spooling their parts to disk first
    # (Starlette rolls over at 1 MiB) costs a write, a read and a thread hop per chunk.
    MultiPartParser.spool_max_size = upload_limit
    app.add_middleware(
        BodySizeLimit,
        routes={
            ("POST", "/api/images"): upload_limit,
            ("PUT", "/api/maps/*/image"): upload_limit,
            ("POST", "/api/maps/withplan"): upload_limit,
            ("POST", "/api/import/parse"): MAX_WORKBOOK_BYTES + 1024**2,
        },
    )
    app.add_middleware(SameOriginWrites)
    # Outermost, so refusals by the middlewares above carry the headers too.
    app.add_middleware(SecurityHeaders, trusted_proxies=settings.trusted_proxies)
    app.add_middleware(RequestId)
    _document_schemas(app, payload_schemas())
    install_api_docs(app, settings.web_dist)
    install_api(app)
    _mount_console(app, settings.web_dist)
    return app
