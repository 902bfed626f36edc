import { useMemo } from 'react';
import type { Zone } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { useLabels } from '../settings/queries';
import { useDeleteZone, zonesListQuery } from './queries';
import { formatAlertTime } from './zoneForm';

const siteOf = (row: Zone) => row.site;

export default function ZonesPage() {
  const perms = usePermissions();
  const labels = useLabels();
  const { siteId } = useSiteSelection();
  const remove = useDeleteZone();
  const query = useMemo(() => zonesListQuery(siteId), [siteId]);
  const columns = useMemo<ListColumn<Zone>[]>(
    () => [
      { field: 'name', headerName: 'Name', minWidth: 140 },
      {
        field: 'description',
        headerName: 'Description',
        sortable: false,
        hideOnMobile: true,
        flex: 2,
      },
      {
        field: 'duration',
        headerName: 'Alert Time',
        minWidth: 110,
        hideOnMobile: true,
        valueFormatter: (value: number) => formatAlertTime(value),
      },
      {
        field: 'items',
        headerName: labels.item,
        sortable: false,
        type: 'number',
        minWidth: 90,
        flex: 0.6,
      },
      ...(labels.hideWorkers
        ? []
        : [
            {
              field: 'workers',
              headerName: labels.worker,
              sortable: false,
              type: 'number',
              minWidth: 90,
              flex: 0.6,
            } satisfies ListColumn<Zone>,
          ]),
    ],
    [labels],
  );
  return (
    <GenericList<Zone>
      title="Zones"
      name="zone"
      query={query}
      columns={columns}
      getRowId={(z) => z._id}
      rowPath={(z) => `/zones/${z._id}`}
      addPath="/zones/new"
      canAdd={perms.can('zones', 'create')}
      canDelete={perms.can('zones', 'delete')}
      onDelete={(z) => remove.mutateAsync(z._id)}
      emptyMessage="No zones found"
      testId="zones-list"
      siteOf={siteOf}
    />
  );
}
