from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin


class Event(IdMixin, Base):
    """Reads of one tag at one endpoint and antenna, folded while they keep coming.

    Partitioned by month of `time` (migration 0011, core/partitions.py): the primary key
    is (org_id, id, time), and a row is found by all three. Its site and endpoint are
    checked per statement, not by foreign keys (migration 0016): deleting the site removes
    its events, deleting the endpoint leaves them with none.
    """

    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_site_time", "org_id", "site_id", "time"),
        # All Sites pages newest first without sorting the organization's events.
        Index("ix_events_org_time", "org_id", "time", "id"),
        Index("ix_events_thing_time", "thing_id", "time"),
        Index("ix_events_fold", "endpoint_id", "antenna", "tag", "time"),
    )

    org_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    site_id: Mapped[str] = mapped_column(String(24), nullable=False)
    endpoint_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    # No foreign key: unknown tags point at the placeholder thing, and history outlives things.
    thing_id: Mapped[str] = mapped_column(String(24), nullable=False)
    tag: Mapped[str] = mapped_column(String(128), nullable=False)
    antenna: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    first_time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    repeat_count: Mapped[int] = mapped_column(BigInteger, nullable=False, default=1)
    direction: Mapped[str] = mapped_column(String(4), nullable=False, default="")
    zone_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    location_tag_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    alarm_tamper: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    rssi: Mapped[float | None] = mapped_column(Float, nullable=True)
    data: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )


HOUR = timedelta(hours=1)


def hour_of(moment: datetime) -> datetime:
    """The UTC hour an event of this `time` is counted in (`date_trunc('hour', time, 'UTC')`)."""
    return moment.astimezone(UTC).replace(minute=0, second=0, microsecond=0)


class EventCount(Base):
    """How many events each site has in each hour (UTC) of their `time` (migration 0013).

    Kept exact in the transactions that write or delete events: processing adds new events
    and moves a folded event whose Last Seen crossed into another hour, retention takes
    deleted rows and dropped months off, and a site's deletion cascades here. The Events
    page's total is read from here for its whole hours (events/repository.py).
    """

    __tablename__ = "event_counts"
    __table_args__ = (
        ForeignKeyConstraint(
            ["org_id", "site_id"], ["sites.org_id", "sites.id"], ondelete="CASCADE"
        ),
        # All Sites: an organization's hours of every site.
        Index("ix_event_counts_org_hour", "org_id", "hour"),
    )

    org_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    site_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    hour: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    events: Mapped[int] = mapped_column(BigInteger, nullable=False)
