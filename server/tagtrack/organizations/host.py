"""Which organization a request is for: the first label of its host names its subdomain.

`acme.track.example.com` and `acme.localhost` are the organization whose subdomain is `acme`.
A host that names none (an IP address, a bare name) falls back to the only organization of
an installation that has just one.
"""

import ipaddress

from tagtrack.models import Organization
from tagtrack.organizations.repository import OrganizationRepository


def subdomain_of(host: str) -> str | None:
    host = host.strip().lower()
    if host.startswith("["):  # an IPv6 literal
        return None
    name = host.rsplit(":", 1)[0] if ":" in host else host
    try:
        ipaddress.ip_address(name)
        return None
    except ValueError:
        pass
    labels = name.split(".")
    return labels[0] if len(labels) >= 2 and labels[0] else None


class HostOrganizations:
    def __init__(self, repository: OrganizationRepository) -> None:
        self.repository = repository

    async def by_subdomain(self, host: str) -> Organization | None:
        """The organization the host's subdomain names, if any."""
        subdomain = subdomain_of(host)
        return await self.repository.by_subdomain(subdomain) if subdomain else None

    async def for_host(self, host: str) -> Organization | None:
        """The subdomain's organization, else the only organization there is."""
        return await self.by_subdomain(host) or await self.repository.the_only_one()
