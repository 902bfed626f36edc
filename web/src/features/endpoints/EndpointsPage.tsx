import { useMemo } from 'react';
import type { Endpoint } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { endpointsListQuery, useDeleteEndpoint } from './queries';

const columns: ListColumn<Endpoint>[] = [
  { field: 'name', headerName: 'Name', minWidth: 160 },
  {
    field: 'description',
    headerName: 'Description',
    sortable: false,
    hideOnMobile: true,
    flex: 2,
  },
];

const siteOf = (row: Endpoint) => row.site;

export default function EndpointsPage() {
  const perms = usePermissions();
  const { siteId } = useSiteSelection();
  const remove = useDeleteEndpoint();
  const query = useMemo(() => endpointsListQuery(siteId), [siteId]);
  return (
    <GenericList<Endpoint>
      title="Endpoints"
      name="endpoint"
      query={query}
      columns={columns}
      getRowId={(e) => e._id}
      rowPath={(e) => `/endpoints/${e._id}`}
      addPath="/endpoints/new"
      canAdd={perms.can('endpoints', 'create')}
      canDelete={perms.can('endpoints', 'delete')}
      onDelete={(e) => remove.mutateAsync(e._id)}
      emptyMessage="No endpoints found"
      testId="endpoints-list"
      siteOf={siteOf}
    />
  );
}
