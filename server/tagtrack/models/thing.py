from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    String,
    Text,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key

_EMPTY_ARRAY = text("'{}'")


class Thing(IdMixin, TimestampMixin, Base):
    """An item or a worker: `common` is what people edit, `state` is what reads set."""

    __tablename__ = "things"
    __table_args__ = (
        Index("ix_things_org_site_class", "org_id", "site_id", "class"),
        Index(
            "ix_things_name_trgm",
            "name",
            postgresql_using="gin",
            postgresql_ops={"name": "gin_trgm_ops"},
        ),
        Index("ix_things_parents", "parents", postgresql_using="gin"),
        # Its site, zone, endpoint and location tag are checked per statement, not by
        # foreign keys (migration 0018): processing updates thousands of things at once.
    )

    org_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    site_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    thing_class: Mapped[str] = mapped_column("class", String(16), nullable=False)
    name: Mapped[str] = mapped_column(String(300), nullable=False, default="")
    description: Mapped[str] = mapped_column(Text, nullable=False, default="")
    serial: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    tag1: Mapped[str] = mapped_column(String(128), nullable=False, default="")
    tag2: Mapped[str] = mapped_column(String(128), nullable=False, default="")
    tags: Mapped[list[str]] = mapped_column(
        ARRAY(String(128)), nullable=False, server_default=_EMPTY_ARRAY
    )
    tags1: Mapped[list[str]] = mapped_column(
        ARRAY(String(128)), nullable=False, server_default=_EMPTY_ARRAY
    )
    tags2: Mapped[list[str]] = mapped_column(
        ARRAY(String(128)), nullable=False, server_default=_EMPTY_ARRAY
    )
    categories: Mapped[list[str]] = mapped_column(
        ARRAY(String(200)), nullable=False, server_default=_EMPTY_ARRAY
    )
    labels: Mapped[list[str]] = mapped_column(
        ARRAY(String(200)), nullable=False, server_default=_EMPTY_ARRAY
    )
    parents: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=_EMPTY_ARRAY
    )
    photo: Mapped[list[str]] = mapped_column(
        ARRAY(String(24)), nullable=False, server_default=_EMPTY_ARRAY
    )
    data: Mapped[dict[str, Any]] = mapped_column(
        JSONB, nullable=False, server_default=text("'{}'::jsonb")
    )

    # State, written by processing.
    zone_id: Mapped[str | None] = mapped_column(String(24), nullable=True, index=True)
    last_event: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_endpoint_time: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    last_zone_time: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # When the thing was last read inside its current zone: the kill delay counts from it.
    last_zone_read: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    endpoint_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    direction: Mapped[str] = mapped_column(String(4), nullable=False, default="")
    location_tag_id: Mapped[str | None] = mapped_column(String(24), nullable=True)
    xy: Mapped[list[float]] = mapped_column(
        ARRAY(Float), nullable=False, server_default=text("'{0,0}'")
    )
    map_id: Mapped[str] = mapped_column(String(24), nullable=False, default="")
    alarm_tamper: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    alarm_tamper_tag: Mapped[str] = mapped_column(String(128), nullable=False, default="")
    alarm_tamper_time: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class ThingTag(Base):
    """Every tag of every thing, upper case: unique within an organization, found by any."""

    __tablename__ = "thing_tags"
    __table_args__ = (tenant_key("thing_id", "things", "CASCADE"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    tag: Mapped[str] = mapped_column(String(128), primary_key=True)
    thing_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
