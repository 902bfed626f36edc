"""Seeded roles and their access rules (role, resource, create, modify, delete)."""

from typing import Literal

Operation = Literal["create", "modify", "delete"]

SUPER_ADMIN = "Super Admin"
ADMINISTRATOR = "Administrator"
MANAGER = "Manager"
OPERATOR = "Operator"
VIEWER = "Viewer"

# Super admin is the delete right on this resource.
ALL_SITES_RESOURCE = "allsites"

RESOURCES = (
    "apikeys",
    "image-categories",
    "locationtags",
    "maps",
    "organizations",
    "ssosettings",
    "reportconfigs",
    "exceptions",
    "import",
    "sites",
    "users",
    "orgsettings",
    "endpoints",
    "workers",
    "items",
    "things",
    "images",
    "zones",
    "events",
    ALL_SITES_RESOURCE,
)

_PROVIDER_ONLY = {"organizations", ALL_SITES_RESOURCE}
_MANAGER = {
    "things",
    "items",
    "workers",
    "images",
    "image-categories",
    "import",
    "reportconfigs",
    "zones",
    "maps",
    "locationtags",
    "endpoints",
    "exceptions",
    "events",
}
_OPERATOR = {"things", "items", "workers", "images"}

Grant = tuple[bool, bool, bool]


def _grants(role: str, resource: str) -> Grant:
    if role == SUPER_ADMIN:
        return (True, True, True)
    if role == ADMINISTRATOR:
        allowed = resource not in _PROVIDER_ONLY
        return (allowed, allowed, allowed)
    if role == MANAGER:
        allowed = resource in _MANAGER
        return (allowed, allowed, allowed)
    if role == OPERATOR:
        allowed = resource in _OPERATOR
        return (allowed, allowed, False)
    return (False, False, False)


SEEDED_ROLES = (SUPER_ADMIN, ADMINISTRATOR, MANAGER, OPERATOR, VIEWER)


def seeded_rules(role: str) -> dict[str, Grant]:
    return {resource: _grants(role, resource) for resource in RESOURCES}
