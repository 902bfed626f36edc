import { useParams } from 'react-router';
import type { ReportConfig, ReportConfigWrite } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { LoadGate } from '../../components/LoadGate';
import { SiteReady } from '../../components/SiteReady';
import { ALL_SITES_ID } from '../../constants';
import { usePermissions } from '../access/queries';
import { useSiteSelection } from '../access/SiteContext';
import { ChipsInput, chipValues } from '../../components/ChipsInput';
import { useZoneOptions } from '../zones/queries';
import {
  useDeleteReportConfig,
  useReportConfig,
  useReportFormats,
  useReportTypes,
  useSaveReportConfig,
} from './queries';

/** The site's zones, and the configuration's own by their names while those load. */
function zoneChoices(
  zones: readonly { _id: string; name: string }[] | undefined,
  config: ReportConfig | undefined,
): { value: string; label: string }[] {
  const known = (zones ?? []).map((z) => ({ value: z._id, label: z.name }));
  const own = (config?.zones ?? [])
    .map((id, i) => ({ value: id, label: config?.zoneNames[i] ?? id }))
    .filter((z) => !known.some((k) => k.value === z.value));
  return [...known, ...own];
}

interface ReportConfigForm {
  name: string;
  type: string;
  format: string;
  email: boolean;
  site: string;
  zones: string[];
  categories: string[];
  headings: string[];
}

function ReportConfigEditor({ id, config }: { id: string; config: ReportConfig | undefined }) {
  const perms = usePermissions();
  const { siteId, sites } = useSiteSelection();
  const types = useReportTypes();
  const formats = useReportFormats();
  const save = useSaveReportConfig();
  const remove = useDeleteReportConfig();
  const isNew = id === 'new';
  const site = config?.site ?? (siteId !== ALL_SITES_ID ? siteId : undefined) ?? '';
  const zones = useZoneOptions(site || undefined);
  const headingsOf = (type: string) => types.data?.find((t) => t.id === type)?.headings ?? [];

  const tabs: TabDef<ReportConfigForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true },
        {
          name: 'type',
          label: 'Type',
          kind: 'select',
          required: true,
          options: (types.data ?? []).map((t) => ({ value: t.id, label: t.name })),
        },
        {
          name: 'format',
          label: 'Format',
          kind: 'select',
          required: true,
          options: (formats.data ?? []).map((f) => ({ value: f.id, label: f.name })),
        },
        {
          name: 'site',
          label: 'Site',
          kind: 'select',
          required: true,
          // A new configuration of All Sites needs its own site; afterwards it stays there.
          hidden: !isNew || !!site,
          options: sites
            .filter((s) => s.id !== ALL_SITES_ID)
            .map((s) => ({
              value: s.id,
              label: s.name,
            })),
        },
        {
          name: 'zones',
          label: 'Zones',
          kind: 'multiselect',
          wide: true,
          helperText: 'None chosen: every zone',
          options: zoneChoices(zones.data, config),
        },
        {
          name: 'categories',
          label: 'Categories',
          kind: 'custom',
          wide: true,
          render: ({ value, onChange, readOnly }) => (
            <ChipsInput
              label="Categories"
              value={chipValues(value)}
              onChange={onChange}
              disabled={readOnly}
            />
          ),
        },
        {
          name: 'headings',
          label: 'Columns',
          kind: 'multiselect',
          wide: true,
          helperText: 'In the order chosen. None chosen: every column of the type',
          optionsWhen: (values) => headingsOf(values.type).map((h) => ({ value: h, label: h })),
        },
        { name: 'email', label: 'Email with the daily report', kind: 'checkbox' },
      ],
    },
  ];

  return (
    <DetailForm<ReportConfigForm, ReportConfig>
      name="report configuration"
      title={isNew ? 'Add Report Configuration' : (config?.name ?? 'Report Configuration')}
      id={id}
      tabs={tabs}
      initialValues={{
        name: config?.name ?? '',
        type: config?.type ?? '',
        format: config?.format ?? '',
        email: config?.email ?? false,
        site,
        zones: config?.zones ?? [],
        categories: config?.categories ?? [],
        headings: config?.headings ?? [],
      }}
      onSave={(values) =>
        save.mutateAsync({
          id,
          body: {
            name: values.name.trim(),
            type: values.type as ReportConfigWrite['type'],
            format: values.format as ReportConfigWrite['format'],
            email: values.email,
            zones: values.zones,
            categories: values.categories,
            // Columns chosen for another type before the type changed do not apply.
            headings: values.headings.filter((h) => headingsOf(values.type).includes(h)),
            site: values.site,
          },
        })
      }
      onDelete={() => remove.mutateAsync(id)}
      parentPath="/reportconfigs"
      canModify={perms.can('reportconfigs', 'modify')}
      canCreate={perms.can('reportconfigs', 'create')}
      canDelete={perms.can('reportconfigs', 'delete')}
    />
  );
}

export default function ReportConfigEditPage() {
  const { id = 'new' } = useParams();
  const query = useReportConfig(id);
  if (id === 'new')
    return (
      <SiteReady>
        <ReportConfigEditor key="new" id={id} config={undefined} />
      </SiteReady>
    );
  return (
    <LoadGate query={query} name="report configuration">
      {(config) => <ReportConfigEditor key={config._id} id={id} config={config} />}
    </LoadGate>
  );
}
