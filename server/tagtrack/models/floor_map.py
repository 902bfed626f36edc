from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, TimestampMixin, tenant_key


class Map(IdMixin, TimestampMixin, Base):
    """A site's floor plan: a picture and the map units of its top-left and bottom-right
    corners. Things, readers and location tags sit on it at fractions of the picture."""

    __tablename__ = "maps"
    __table_args__ = (
        UniqueConstraint("org_id", "site_id", "name"),
        tenant_key("site_id", "sites", "CASCADE"),
    )

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    site_id: Mapped[str] = mapped_column(String(24), nullable=False, index=True)
    name: Mapped[str] = mapped_column(String(200), nullable=False)
    top_left: Mapped[list[float]] = mapped_column(
        ARRAY(Float), nullable=False, server_default=text("'{0,1000}'")
    )
    bot_right: Mapped[list[float]] = mapped_column(
        ARRAY(Float), nullable=False, server_default=text("'{1000,0}'")
    )
    # The floor plan; an empty storage key means none was uploaded yet.
    image_key: Mapped[str] = mapped_column(String(200), nullable=False, default="")
    image_type: Mapped[str] = mapped_column(String(100), nullable=False, default="")
    image_width: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    image_height: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
    # Bumped with each new picture so browsers fetch it again.
    image_version: Mapped[int] = mapped_column(Integer, nullable=False, default=0)
