import { useMemo } from 'react';
import { useParams } from 'react-router';
import type { LocationTag } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { SiteReady } from '../../components/SiteReady';
import { useRecordSite } from '../../components/useRecordSite';
import { coordinateRule } from '../endpoints/endpointForm';
import { useMapOptions } from '../maps/queries';
import { usePermissions } from '../access/queries';
import { useZoneOptions } from '../zones/queries';
import {
  NO_ZONE,
  formToLocationTag,
  locationTagToForm,
  type LocationTagForm,
} from './locationTagForm';
import { useDeleteLocationTag, useLocationTag, useSaveLocationTag } from './queries';

function LocationTagEditor({ id, tag }: { id: string; tag: LocationTag | undefined }) {
  const isNew = id === 'new';
  const perms = usePermissions();
  const save = useSaveLocationTag();
  const remove = useDeleteLocationTag();
  const recordSite = useRecordSite<LocationTagForm>(tag?.site);
  const zones = useZoneOptions(recordSite.site || undefined);
  const mapOptions = useMapOptions(recordSite.site);
  const zoneOptions = useMemo(
    () => [
      { value: NO_ZONE, label: 'None' },
      ...(zones.data ?? []).map((z) => ({ value: z._id, label: z.name })),
    ],
    [zones.data],
  );

  const tabs: TabDef<LocationTagForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true },
        {
          name: 'tag',
          label: 'Tag',
          required: true,
          helperText: 'The EPC read from the tag; kept in upper case',
        },
        recordSite.field,
        { name: 'zone', label: 'Zone', kind: 'select', options: zoneOptions },
        { name: 'map', label: 'Map', kind: 'select', options: mapOptions },
        { name: 'x', label: 'X', kind: 'number', validate: coordinateRule },
        { name: 'y', label: 'Y', kind: 'number', validate: coordinateRule },
      ],
    },
  ];

  return (
    <DetailForm<LocationTagForm, LocationTag>
      name="location tag"
      title={isNew ? 'Add Location Tag' : (tag?.name ?? 'Location Tag')}
      id={id}
      tabs={tabs}
      initialValues={locationTagToForm(tag, recordSite.site)}
      onSave={(values) => save.mutateAsync({ id, body: formToLocationTag(values) })}
      onDelete={() => remove.mutateAsync(id)}
      parentPath="/locationtags"
      canModify={perms.can('locationtags', 'modify')}
      canCreate={perms.can('locationtags', 'create')}
      canDelete={perms.can('locationtags', 'delete')}
    />
  );
}

export default function LocationTagEditPage() {
  const { id = 'new' } = useParams();
  const query = useLocationTag(id);
  if (id === 'new')
    return (
      <SiteReady>
        <LocationTagEditor key="new" id={id} tag={undefined} />
      </SiteReady>
    );
  return (
    <LoadGate query={query} name="location tag">
      {(tag) => <LocationTagEditor key={tag._id} id={id} tag={tag} />}
    </LoadGate>
  );
}
