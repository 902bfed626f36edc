from collections.abc import Sequence

from sqlalchemy import select

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import ApiKey


class ApiKeyRepository(Repository[ApiKey]):
    model = ApiKey

    async def list_page(self, org_id: str, params: ListParams) -> tuple[Sequence[ApiKey], int]:
        return await paginate(
            self.session,
            select(ApiKey).where(ApiKey.org_id == org_id),
            params,
            sortable={"name": ApiKey.name, "timeCreated": ApiKey.time_created},
            default_sort="name",
            searchable=[ApiKey.name],
            tiebreak=ApiKey.id,
        )

    async def get(self, org_id: str, key_id: str) -> ApiKey | None:
        stmt = select(ApiKey).where(ApiKey.org_id == org_id, ApiKey.id == key_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()
