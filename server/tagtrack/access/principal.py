"""Who is calling, and what their roles allow."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from tagtrack.access.rules import ALL_SITES_RESOURCE, Operation
from tagtrack.models.ids import ALL_SITES_ID


@dataclass(frozen=True)
class Grant:
    create: bool = False
    modify: bool = False
    delete: bool = False


def merge_grants(rules: Iterable[tuple[str, bool, bool, bool]]) -> dict[str, Grant]:
    """A user holds a right when any of their roles grants it."""
    grants: dict[str, Grant] = {}
    for resource, create, modify, delete in rules:
        held = grants.get(resource, Grant())
        grants[resource] = Grant(
            held.create or create, held.modify or modify, held.delete or delete
        )
    return grants


def holds_super_admin(grants: dict[str, Grant]) -> bool:
    return grants.get(ALL_SITES_RESOURCE, Grant()).delete


@dataclass(frozen=True)
class Principal:
    user_id: str
    org_id: str
    name: str
    username: str
    role_ids: tuple[str, ...]
    site_ids: tuple[str, ...]
    grants: dict[str, Grant] = field(default_factory=dict)
    session_token_hash: str | None = None
    # Set when an API key (not a person) is calling.
    api_key_id: str | None = None
    client: str = ""

    @property
    def actor_id(self) -> str:
        return self.api_key_id or self.user_id

    @property
    def actor(self) -> str:
        """How the audit log names the caller."""
        return self.name if self.api_key_id else self.username

    def can(self, resource: str, operation: Operation) -> bool:
        grant = self.grants.get(resource)
        return bool(grant and getattr(grant, operation))

    @property
    def super_admin(self) -> bool:
        return holds_super_admin(self.grants)

    @property
    def all_sites(self) -> bool:
        """Scoped to every site of the organization."""
        return self.super_admin or ALL_SITES_ID in self.site_ids

    def sees_site(self, site_id: str) -> bool:
        return self.all_sites or site_id in self.site_ids
