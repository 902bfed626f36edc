from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, tenant_key, utcnow


class PendingRead(Base):
    """A read that was acknowledged to its reader and waits to be processed."""

    __tablename__ = "pending_reads"

    # Its organization is checked per statement, not by a foreign key (migration 0017).
    org_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    endpoint_id: Mapped[str] = mapped_column(String(24), nullable=False)
    tag: Mapped[str] = mapped_column(String(128), nullable=False)
    antenna: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True), nullable=False)
    rssi: Mapped[float | None] = mapped_column(Float, nullable=True)
    direction: Mapped[str] = mapped_column(String(4), nullable=False, default="")
    tamper: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    data: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )
    # A manual event names its zone instead of going through gates.
    zone_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    received_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, default=utcnow
    )


class IngestBatch(Base):
    """A batch id a reader already delivered: a retry is acknowledged, not counted again."""

    __tablename__ = "ingest_batches"
    __table_args__ = (tenant_key("endpoint_id", "endpoints", "CASCADE"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    endpoint_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    batch_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    accepted: Mapped[int] = mapped_column(Integer, nullable=False)
    received_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, default=utcnow, index=True
    )


class RawPayload(Base):
    """What a reader sent, kept for a few days for diagnosis."""

    __tablename__ = "raw_payloads"

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    endpoint_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    channel: Mapped[str] = mapped_column(String(16), nullable=False)
    body: Mapped[bytes] = mapped_column(LargeBinary, nullable=False)
    received_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), nullable=False, default=utcnow, index=True
    )
