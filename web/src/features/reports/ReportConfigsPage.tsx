import Checkbox from '@mui/material/Checkbox';
import { useMemo } from 'react';
import type { ReportConfig } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { usePermissions } from '../access/queries';
import { useSiteSelection } from '../access/SiteContext';
import { reportConfigsListQuery, useDeleteReportConfig, useReportTypes } from './queries';

/** Report Configuration: the site's configured reports (Name, Type, Zone, Email). */
const siteOf = (row: ReportConfig) => row.site;

export default function ReportConfigsPage() {
  const perms = usePermissions();
  const { siteId } = useSiteSelection();
  const types = useReportTypes();
  const remove = useDeleteReportConfig();
  const columns = useMemo<ListColumn<ReportConfig>[]>(
    () => [
      { field: 'name', headerName: 'Name', flex: 1.4, minWidth: 100 },
      {
        field: 'type',
        headerName: 'Type',
        flex: 1.6,
        hideOnMobile: true,
        valueFormatter: (value: string) => types.data?.find((t) => t.id === value)?.name ?? value,
      },
      {
        field: 'zones',
        headerName: 'Zone',
        sortable: false,
        flex: 1.2,
        minWidth: 100,
        valueGetter: (_v, row) => (row.zoneNames.length ? row.zoneNames.join(', ') : 'All'),
      },
      {
        field: 'email',
        headerName: 'Email',
        width: 72,
        flex: 0,
        minWidth: 64,
        align: 'center',
        headerAlign: 'center',
        disableColumnMenu: true,
        renderCell: ({ row }) => (
          <Checkbox
            size="small"
            checked={row.email}
            disabled
            slotProps={{ input: { 'aria-label': `Email ${row.name}` } }}
          />
        ),
      },
    ],
    [types.data],
  );
  return (
    <GenericList<ReportConfig>
      title="Report Configuration"
      name="report configuration"
      query={reportConfigsListQuery(siteId)}
      columns={columns}
      getRowId={(r) => r._id}
      rowPath={(r) => `/reportconfigs/${r._id}`}
      addPath="/reportconfigs/new"
      canAdd={perms.can('reportconfigs', 'create')}
      canDelete={perms.can('reportconfigs', 'delete')}
      onDelete={(r) => remove.mutateAsync(r._id)}
      emptyMessage="No report configurations found"
      testId="reportconfigs-list"
      siteOf={siteOf}
    />
  );
}
