from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST

from tagtrack import __version__
from tagtrack.core.db import DbSession
from tagtrack.meta.schemas import Health, Readiness, VersionRead
from tagtrack.meta.service import MetaService

router = APIRouter(tags=["meta"])
probes = APIRouter(include_in_schema=False)


@router.get("/version", response_model=VersionRead)
async def version() -> VersionRead:
    """The product version."""
    return VersionRead(version=__version__)


@probes.get("/healthz", response_model=Health)
async def healthz(session: DbSession, response: Response) -> Health:
    """Liveness and database reachability."""
    readiness = await MetaService(session).readiness(None, None)
    if readiness.status != "ready":
        response.status_code = 503
        return Health(status="unavailable", database="unreachable")
    return Health(status="ok", database="ok")


@probes.get("/readyz", response_model=Readiness, responses={503: {"model": Readiness}})
async def readyz(request: Request, session: DbSession) -> JSONResponse:
    """Ready for traffic: each check "ok", else 503 with the failing check's reason."""
    state = request.app.state
    processing = state.processing if state.settings.processing else None
    readiness = await MetaService(session).readiness(processing, state.mqtt)
    status = 200 if readiness.status == "ready" else 503
    return JSONResponse(readiness.model_dump(), status_code=status)


@probes.get("/metrics")
async def metrics(session: DbSession) -> Response:
    """Prometheus metrics of every process of this server, and the processing backlog."""
    return Response(await MetaService(session).metrics(), media_type=CONTENT_TYPE_LATEST)
