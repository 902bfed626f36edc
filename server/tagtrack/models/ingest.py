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
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, tenant_key, utcnow


class PendingReadBatch(Base):
    """Reads acknowledged to their reader together, waiting to be processed: one row a batch.

    The reads are stored column by column, one array each, so that queueing a batch and
    taking it costs one row, whatever its size (a row a read cost more than the rules).
    """

    __tablename__ = "pending_read_batches"

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    endpoint_id: Mapped[str] = mapped_column(String(24), nullable=False)
    reads: Mapped[int] = mapped_column(Integer, nullable=False)
    tags: Mapped[list[str]] = mapped_column(ARRAY(String(128)), nullable=False)
    antennas: Mapped[list[int]] = mapped_column(ARRAY(Integer), nullable=False)
    times: Mapped[list[datetime]] = mapped_column(ARRAY(DateTime(timezone=True)), nullable=False)
    rssis: Mapped[list[float | None]] = mapped_column(ARRAY(Float), nullable=False)
    directions: Mapped[list[str]] = mapped_column(ARRAY(String(4)), nullable=False)
    tampers: Mapped[list[bool]] = mapped_column(ARRAY(Boolean), nullable=False)
    # Each read's sensor data, only when some read of the batch has any.
    data: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONB, nullable=True)
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
