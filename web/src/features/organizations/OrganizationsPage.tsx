import type { Organization } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { usePermissions } from '../access/queries';
import { organizationsListQuery, useDeleteOrganization } from './queries';

const columns: ListColumn<Organization>[] = [
  { field: 'name', headerName: 'Name', minWidth: 140 },
  { field: 'subdomain', headerName: 'Subdomain', minWidth: 120 },
];

export default function OrganizationsPage() {
  const perms = usePermissions();
  const remove = useDeleteOrganization();
  return (
    <GenericList<Organization>
      title="Organizations"
      name="organization"
      query={organizationsListQuery}
      columns={columns}
      getRowId={(o) => o._id}
      rowPath={(o) => `/organizations/${o._id}`}
      addPath="/organizations/new"
      canAdd={perms.can('organizations', 'create')}
      canDelete={perms.can('organizations', 'delete')}
      onDelete={(o) => remove.mutateAsync(o._id)}
      emptyMessage="No organizations found"
      testId="organizations-list"
    />
  );
}
