import { GenericList, type ListColumn } from '../../components/GenericList';
import { formatListDate } from '../../components/format';
import type { Site } from '../../api/types';
import { usePermissions } from '../access/queries';
import { sitesListQuery, useDeleteSite } from './queries';

const columns: ListColumn<Site>[] = [
  { field: 'name', headerName: 'Name', minWidth: 140 },
  {
    field: 'description',
    headerName: 'Description',
    sortable: false,
    hideOnMobile: true,
    flex: 2,
  },
  {
    field: 'startDate',
    headerName: 'Start Date',
    minWidth: 190,
    valueFormatter: (value: string) => formatListDate(value),
  },
];

export default function SitesPage() {
  const perms = usePermissions();
  const remove = useDeleteSite();
  return (
    <GenericList<Site>
      title="Sites"
      name="site"
      query={sitesListQuery}
      columns={columns}
      getRowId={(s) => s._id}
      rowPath={(s) => `/sites/${s._id}`}
      addPath="/sites/new"
      canAdd={perms.can('sites', 'create')}
      canDelete={perms.can('sites', 'delete')}
      onDelete={(s) => remove.mutateAsync(s._id)}
      emptyMessage="No sites found"
      testId="sites-list"
    />
  );
}
