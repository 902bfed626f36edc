from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, tenant_key, utcnow


class PendingReadBatch(Base):
    """Reads acknowledged to their reader together, waiting to be processed: one row a batch.

    One row, so that queueing a batch and taking it costs one row whatever its size
    (a row a read cost more than the rules). `body` holds the reads as a JSON array, each
    read an array of its fields (`formats.pack_reads`): `body::jsonb` reads it in SQL.
    """

    __tablename__ = "pending_read_batches"

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    endpoint_id: Mapped[str] = mapped_column(String(24), nullable=False)
    reads: Mapped[int] = mapped_column(Integer, nullable=False)
    body: Mapped[str] = mapped_column(Text, nullable=False)
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


class ProcessingEpoch(Base):
    """Counts the batches processed for an organization, each one adding one.

    A processing worker keeps a batch's rows in memory for the next one. They are still
    what the database holds when the count is where that worker left it: no one else
    processed for the organization meanwhile (see processing.state).
    """

    __tablename__ = "processing_epochs"

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    epoch: Mapped[int] = mapped_column(BigInteger, nullable=False)
