from sqlalchemy import Float, ForeignKey, String, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key


class LocationTag(IdMixin, TimestampMixin, Base):
    """A fixed tag on a wall or shelf: a handheld that reads it stands there."""

    __tablename__ = "location_tags"
    __table_args__ = (
        UniqueConstraint("org_id", "tag"),
        tenant_key("site_id", "sites", "CASCADE"),
        tenant_key("zone_id", "zones", "SET NULL"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    tag: Mapped[str] = mapped_column(String(128), nullable=False)
    zone_id: Mapped[str | None] = mapped_column(String(24), nullable=True, index=True)
    map_id: Mapped[str] = mapped_column(String(24), nullable=False, default="")
    xy: Mapped[list[float]] = mapped_column(
        ARRAY(Float), nullable=False, server_default=text("'{0,0}'")
    )
