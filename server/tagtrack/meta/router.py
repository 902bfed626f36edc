from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from pydantic import BaseModel
from sqlalchemy import text

from tagtrack import __version__
from tagtrack.core.db import DbSession

router = APIRouter(tags=["meta"])
probes = APIRouter(include_in_schema=False)


class VersionRead(BaseModel):
    version: str


class Health(BaseModel):
    status: str
    database: str


@router.get("/version", response_model=VersionRead)
async def version() -> VersionRead:
    """The product version."""
    return VersionRead(version=__version__)


@probes.get("/healthz", response_model=Health)
async def healthz(session: DbSession, response: Response) -> Health:
    """Liveness and database reachability."""
    try:
        await session.execute(text("SELECT 1"))
    except Exception:  # any database failure means unhealthy
        response.status_code = 503
        return Health(status="unavailable", database="unreachable")
    return Health(status="ok", database="ok")


@probes.get("/metrics")
async def metrics(request: Request) -> Response:
    """Prometheus metrics of this process."""
    return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
