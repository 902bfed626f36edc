from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key, utcnow


class Endpoint(IdMixin, TimestampMixin, Base):
    """A reader: a fixed reader with antennas or a handheld."""

    __tablename__ = "endpoints"
    __table_args__ = (
        UniqueConstraint("org_id", "name"),
        # Unique across organizations through org_keys: a reader's message names none.
        UniqueConstraint("org_id", "key", name="uq_endpoints_org_id_key"),
        tenant_key("site_id", "sites", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    uuid: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    map_id: Mapped[str] = mapped_column(String(24), nullable=False, default="")
    external_gate: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    xy: Mapped[list[float]] = mapped_column(
        ARRAY(Float), nullable=False, server_default=text("'{0,0}'")
    )
    # Readers present it as a bearer token; the pairing QR code shows it, so it is kept as is.
    key: Mapped[str] = mapped_column(String(64), nullable=False)
    auto_enroll: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    auto_enroll_location: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    # [{"map": "...", "xycoordinates": [x, y]}], one per antenna port in order.
    antennas: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONB, nullable=False, server_default=text("'[]'::jsonb")
    )
    config: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
    # A handheld stands at the location tag it read last, for a while.
    location_tag_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    location_time: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EndpointStatus(Base):
    """One heartbeat of a reader."""

    __tablename__ = "endpoint_statuses"
    __table_args__ = (
        Index("ix_endpoint_statuses_endpoint_time", "endpoint_id", "time"),
        tenant_key("endpoint_id", "endpoints", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    endpoint_id: Mapped[str] = mapped_column(String(24), nullable=False)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False, default=utcnow)
    uptime: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    reader_temp: Mapped[float | None] = mapped_column(Float, nullable=True)
    ip: Mapped[str] = mapped_column(String(64), nullable=False, default="")
    version: Mapped[str] = mapped_column(String(64), nullable=False, default="")
