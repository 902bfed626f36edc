import { useMemo } from 'react';
import { useParams } from 'react-router';
import type { Zone } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { SiteReady } from '../../components/SiteReady';
import { useRecordSite } from '../../components/useRecordSite';
import { usePermissions } from '../access/queries';
import { GatesEditor } from './GatesEditor';
import { useDeleteZone, useKillModes, useSaveZone, useZone } from './queries';
import {
  formToZone,
  gatesRule,
  notNegativeRule,
  zoneToForm,
  type GateRow,
  type ZoneForm,
} from './zoneForm';

function ZoneEditor({ id, zone }: { id: string; zone: Zone | undefined }) {
  const isNew = id === 'new';
  const perms = usePermissions();
  const save = useSaveZone();
  const remove = useDeleteZone();
  const killModes = useKillModes();
  const recordSite = useRecordSite<ZoneForm>(zone?.site);
  const killModeOptions = useMemo(
    () => (killModes.data ?? []).map((m) => ({ value: m.id, label: m.name })),
    [killModes.data],
  );

  const tabs: TabDef<ZoneForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true },
        recordSite.field,
        { name: 'description', label: 'Description', kind: 'textarea', wide: true },
        {
          name: 'alertMinutes',
          label: 'Alert Time (minutes)',
          kind: 'number',
          validate: notNegativeRule,
          helperText: 'Alert when a thing stays longer; 0 for no alert',
        },
        {
          name: 'killDuration',
          label: 'Delete Delay (hours)',
          kind: 'number',
          validate: notNegativeRule,
          helperText: 'A thing not read here for this long leaves the zone; 0 never',
        },
        {
          name: 'killMode',
          label: 'Delete Behaviour',
          kind: 'select',
          required: true,
          options: killModeOptions,
        },
        {
          name: 'immediateKill',
          label: 'Delete Immediately',
          kind: 'checkbox',
          helperText: 'Leave on the first OUT or GONE read',
        },
        { name: 'emails', label: 'Emails', kind: 'emails', wide: true },
      ],
    },
    {
      label: 'Gates',
      fields: [
        {
          name: 'gates',
          label: 'Gates',
          kind: 'custom',
          wide: true,
          ownErrors: true,
          validate: (rows) => gatesRule((rows as GateRow[] | undefined) ?? []),
          render: ({ value, onChange, readOnly, invalid }) => (
            <GatesEditor
              site={recordSite.site}
              value={(value as GateRow[] | undefined) ?? []}
              onChange={onChange}
              readOnly={readOnly}
              invalid={invalid}
            />
          ),
        },
      ],
    },
  ];

  return (
    <DetailForm<ZoneForm, Zone>
      name="zone"
      title={isNew ? 'Add Zone' : (zone?.name ?? 'Zone')}
      id={id}
      tabs={tabs}
      initialValues={zoneToForm(zone, recordSite.site)}
      onSave={(values) => save.mutateAsync({ id, body: formToZone(values) })}
      onDelete={() => remove.mutateAsync(id)}
      parentPath="/zones"
      canModify={perms.can('zones', 'modify')}
      canCreate={perms.can('zones', 'create')}
      canDelete={perms.can('zones', 'delete')}
    />
  );
}

export default function ZoneEditPage() {
  const { id = 'new' } = useParams();
  const query = useZone(id);
  if (id === 'new')
    return (
      <SiteReady>
        <ZoneEditor key="new" id={id} zone={undefined} />
      </SiteReady>
    );
  return (
    <LoadGate query={query} name="zone">
      {(zone) => <ZoneEditor key={zone._id} id={id} zone={zone} />}
    </LoadGate>
  );
}
