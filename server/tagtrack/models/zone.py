from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key


class Zone(IdMixin, TimestampMixin, Base):
    __tablename__ = "zones"
    __table_args__ = (
        UniqueConstraint("org_id", "site_id", "name"),
        tenant_key("site_id", "sites", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    # Alert time in nanoseconds; 0 means no dwell alert.
    duration: Mapped[int] = mapped_column(BigInteger, nullable=False, default=0)
    emails: Mapped[list[str]] = mapped_column(
        ARRAY(String(254)), nullable=False, server_default=text("'{}'")
    )
    kill_duration: Mapped[float] = mapped_column(Float, nullable=False, default=0)
    immediate_kill: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    kill_mode: Mapped[str] = mapped_column(String(16), nullable=False, default="zone")


class ZoneGate(Base):
    """A reader antenna that moves things into (IN, NEAR) or out of (OUT, GONE) a zone."""

    __tablename__ = "zone_gates"
    __table_args__ = (
        tenant_key("zone_id", "zones", "CASCADE"),
        tenant_key("endpoint_id", "endpoints", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    zone_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    endpoint_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    direction: Mapped[str] = mapped_column(String(4), nullable=False)
    # -1 means every antenna of the endpoint.
    antenna: Mapped[int] = mapped_column(Integer, nullable=False, default=-1)
    position: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
