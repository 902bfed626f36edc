from datetime import datetime

from sqlalchemy import (
    BigInteger,
    DateTime,
    Index,
    String,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin


class ZoneDuration(IdMixin, Base):
    """One visit of a thing to a zone; open while `time_end` is null.

    Partitioned by month of `time_start` (migration 0011, core/partitions.py): the primary
    key is (org_id, id, time_start). Its site, thing and zone are checked per statement, not
    by foreign keys (migration 0016); deleting any of them removes the visit.
    """

    __tablename__ = "zone_durations"
    __table_args__ = (
        Index("ix_zone_durations_site_start", "org_id", "site_id", "time_start"),
        # All Sites pages newest first, and retention's old rows of one organization.
        Index("ix_zone_durations_org_start", "org_id", "time_start", "id"),
        Index("ix_zone_durations_zone_id", "zone_id"),
        # Not unique: a unique index of a partitioned table must hold the partition key.
        # One open visit per thing is kept by processing, under the organization's advisory
        # lock and the thing's row lock.
        Index(
            "ix_zone_durations_open_thing",
            "thing_id",
            postgresql_where=text("time_end IS NULL"),
        ),
    )

    org_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    site_id: Mapped[str] = mapped_column(String(24), nullable=False)
    thing_id: Mapped[str] = mapped_column(String(24), nullable=False)
    zone_id: Mapped[str] = mapped_column(String(24), nullable=False)
    time_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), primary_key=True)
    time_end: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Nanoseconds; set when the visit closes.
    time_duration: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
