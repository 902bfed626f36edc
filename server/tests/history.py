"""History without the API: an organization's floor, reads processed at once, retention."""

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.ingest.formats import Read, pack_reads
from tagtrack.kit.wiring import Wiring
from tagtrack.models import Organization, PendingReadBatch, Site
from tagtrack.models.ids import new_id
from tagtrack.organizations.service import OrganizationService
from tagtrack.processing.repository import ReadRow
from tests.tracking import T0, Floor

Maker = async_sessionmaker[AsyncSession]


async def new_floor(maker: Maker, settings: Settings, name: str) -> Floor:
    """An organization with one site, as a floor to build on (no API client)."""
    async with maker() as session, session.begin():
        organizations = Wiring(session).get(OrganizationService)
        org = await organizations.create_organization(name, f"{name.lower()}-{new_id()[-6:]}")
        site = Site(org_id=org.id, name="Yard", start_date=T0, timezone="UTC")
        session.add(site)
        await session.flush()
        return Floor(org.id, site.id, maker, settings, None)  # type: ignore[arg-type]


def read_at(floor: Floor, endpoint_id: str, tag: str, moment: datetime) -> ReadRow:
    """A read to process at once (as manual events are), never queued."""
    return ReadRow(0, endpoint_id, tag, 0, moment, None, "", False, {}, None)


def queued(floor: Floor, endpoint_id: str, reads: Sequence[ReadRow]) -> PendingReadBatch:
    """Reads of one endpoint as ingest queues them: one batch."""
    return PendingReadBatch(
        org_id=floor.org_id,
        endpoint_id=endpoint_id,
        reads=len(reads),
        body=pack_reads(
            [
                Read(r.tag, r.time, r.antenna, r.rssi, r.direction or None, r.tamper, r.data)
                for r in reads
            ]
        ),
    )


async def set_retention(maker: Maker, org_id: str, days: int) -> None:
    async with maker() as session, session.begin():
        await session.execute(
            update(Organization)
            .where(Organization.id == org_id)
            .values(history_retention_days=days)
        )
