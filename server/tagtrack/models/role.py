from sqlalchemy import Boolean, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tagtrack.models.base import Base, IdMixin, tenant_key


class Role(IdMixin, Base):
    __tablename__ = "roles"
    __table_args__ = (UniqueConstraint("org_id", "name"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(100), nullable=False)


class AccessRule(Base):
    __tablename__ = "access_rules"
    __table_args__ = (tenant_key("role_id", "roles", "CASCADE"),)

    org_id: Mapped[str] = mapped_column(
        String(24), ForeignKey("organizations.id", ondelete="CASCADE"), primary_key=True
    )
    role_id: Mapped[str] = mapped_column(String(24), primary_key=True)
    resource: Mapped[str] = mapped_column(String(50), primary_key=True)
    create: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    modify: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
    delete: Mapped[bool] = mapped_column(Boolean, nullable=False, default=False)
