import { useMemo } from 'react';
import type { LocationTag } from '../../api/types';
import { GenericList, type ListColumn } from '../../components/GenericList';
import { useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { useZoneOptions } from '../zones/queries';
import { formatCoordinates } from './locationTagForm';
import { locationTagsListQuery, useDeleteLocationTag } from './queries';

const siteOf = (row: LocationTag) => row.site;

export default function LocationTagsPage() {
  const perms = usePermissions();
  const { siteId } = useSiteSelection();
  const zones = useZoneOptions(siteId);
  const remove = useDeleteLocationTag();
  const query = useMemo(() => locationTagsListQuery(siteId), [siteId]);
  const columns = useMemo<ListColumn<LocationTag>[]>(() => {
    const zoneNames = new Map((zones.data ?? []).map((z) => [z._id, z.name]));
    return [
      { field: 'name', headerName: 'Name', minWidth: 140 },
      { field: 'tag', headerName: 'Tag', minWidth: 140 },
      {
        field: 'xycoordinates',
        headerName: 'Coordinates',
        sortable: false,
        hideOnMobile: true,
        valueFormatter: (value: number[]) => formatCoordinates(value),
      },
      {
        // The server sorts by the zone's name.
        field: 'zone',
        headerName: 'Zone',
        hideOnMobile: true,
        valueGetter: (value: string | null) => (value ? (zoneNames.get(value) ?? '') : ''),
      },
    ];
  }, [zones.data]);
  return (
    <GenericList<LocationTag>
      title="Location Tags"
      name="location tag"
      query={query}
      columns={columns}
      getRowId={(t) => t._id}
      rowPath={(t) => `/locationtags/${t._id}`}
      addPath="/locationtags/new"
      canAdd={perms.can('locationtags', 'create')}
      canDelete={perms.can('locationtags', 'delete')}
      onDelete={(t) => remove.mutateAsync(t._id)}
      emptyMessage="No location tags found"
      testId="locationtags-list"
      siteOf={siteOf}
    />
  );
}
