import { useMemo } from 'react';
import type { FloorMap } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { formatPoint } from './mapLogic';
import { mapsListQuery, useDeleteFloorMap } from './queries';

const COLUMNS: ListColumn<FloorMap>[] = [
  { field: 'name', headerName: 'Name', minWidth: 160 },
  {
    field: 'topLeft',
    headerName: 'TopLeft',
    sortable: false,
    valueFormatter: (value: number[]) => formatPoint(value),
  },
  {
    field: 'botRight',
    headerName: 'BotRight',
    sortable: false,
    valueFormatter: (value: number[]) => formatPoint(value),
  },
];

const siteOf = (row: FloorMap) => row.site;

export default function MapsPage() {
  const perms = usePermissions();
  const { siteId } = useSiteSelection();
  const remove = useDeleteFloorMap();
  const query = useMemo(() => mapsListQuery(siteId), [siteId]);
  return (
    <GenericList<FloorMap>
      title="Maps"
      name="map"
      query={query}
      columns={COLUMNS}
      getRowId={(m) => m._id}
      rowPath={(m) => `/maps/${m._id}`}
      addPath="/maps/new"
      canAdd={perms.can('maps', 'create')}
      canDelete={perms.can('maps', 'delete')}
      onDelete={(m) => remove.mutateAsync(m._id)}
      emptyMessage="No maps found"
      testId="maps-list"
      siteOf={siteOf}
    />
  );
}
