import AddIcon from '@mui/icons-material/Add';
import RouterOutlined from '@mui/icons-material/RouterOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import type { Site, SiteWrite } from '../../api/types';
import { DetailForm, type TabDef } from '../../components/DetailForm';
import { EmptyState } from '../../components/EmptyState';
import { LoadGate } from '../../components/LoadGate';
import { usePermissions } from '../access/queries';
import { pathWithSite } from '../access/siteSelection';
import { useDeleteSite, useSaveSite, useSite, useTimezones } from './queries';

interface SiteForm {
  name: string;
  description: string;
  startDate: Dayjs | null;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  country: string;
  zipcode: string;
  timezone: string;
  dailyTime: string;
  emails: string[];
}

function browserTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return '';
  }
}

function siteToForm(site: Site | undefined): SiteForm {
  return {
    name: site?.name ?? '',
    description: site?.description ?? '',
    startDate: site ? dayjs(site.startDate) : dayjs().startOf('day'),
    addressLine1: site?.addressLine1 ?? '',
    addressLine2: site?.addressLine2 ?? '',
    city: site?.city ?? '',
    state: site?.state ?? '',
    country: site?.country ?? '',
    zipcode: site?.zipcode ?? '',
    timezone: site ? site.timezone.id : browserTimezone(),
    dailyTime: site?.reportSettings?.dailyTime ?? '',
    emails: site?.reportSettings?.emails ?? [],
  };
}

function formToSite(form: SiteForm): SiteWrite {
  return {
    name: form.name.trim(),
    description: form.description,
    startDate: (form.startDate ?? dayjs()).toISOString(),
    addressLine1: form.addressLine1,
    addressLine2: form.addressLine2,
    city: form.city,
    state: form.state,
    country: form.country,
    zipcode: form.zipcode,
    timezone: { id: form.timezone },
    reportSettings: { dailyTime: form.dailyTime, emails: form.emails },
  };
}

function EndpointsTab({ site, canAdd }: { site: Site; canAdd: boolean }) {
  const endpoints = site.endpoints ?? [];
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          Endpoints
        </Typography>
        {canAdd && (
          <Button
            component={Link}
            to={pathWithSite('/endpoints/new', site._id)}
            startIcon={<AddIcon />}
            variant="outlined"
          >
            Add
          </Button>
        )}
      </Box>
      {endpoints.length === 0 ? (
        <EmptyState message="This site has no endpoints yet." />
      ) : (
        <List dense>
          {endpoints.map((e) => (
            <ListItemButton
              key={e._id}
              component={Link}
              to={pathWithSite(`/endpoints/${e._id}`, site._id)}
            >
              <ListItemIcon>
                <RouterOutlined fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={e.name} slotProps={{ primary: { noWrap: true } }} />
            </ListItemButton>
          ))}
        </List>
      )}
    </Box>
  );
}

function SiteEditor({ id, site }: { id: string; site: Site | undefined }) {
  const perms = usePermissions();
  const save = useSaveSite();
  const remove = useDeleteSite();
  const timezones = useTimezones();
  const timezoneOptions = useMemo(
    () => (timezones.data ?? []).map((t) => ({ value: t.id, label: t.id })),
    [timezones.data],
  );
  const isNew = id === 'new';

  const tabs: TabDef<SiteForm>[] = [
    {
      label: 'Basic',
      fields: [
        { name: 'name', label: 'Name', required: true },
        { name: 'description', label: 'Description' },
        { name: 'startDate', label: 'Start Date', kind: 'date', required: true },
        {
          name: 'timezone',
          label: 'Timezone',
          kind: 'autocomplete',
          required: true,
          options: timezoneOptions,
        },
        { name: 'addressLine1', label: 'Address Line 1' },
        { name: 'addressLine2', label: 'Address Line 2' },
        { name: 'city', label: 'City' },
        { name: 'state', label: 'State' },
        { name: 'country', label: 'Country' },
        { name: 'zipcode', label: 'Postal Code' },
      ],
    },
    {
      label: 'Reports',
      fields: [
        {
          name: 'dailyTime',
          label: 'Daily Report Start Time',
          kind: 'time',
          helperText: "Time of day, in the site's timezone",
        },
        { name: 'emails', label: 'Emails', kind: 'emails', wide: true },
      ],
    },
    {
      label: 'Endpoints',
      hidden: isNew || !site,
      content: site ? <EndpointsTab site={site} canAdd={perms.can('endpoints', 'create')} /> : null,
    },
  ];

  return (
    <DetailForm<SiteForm, Site>
      name="site"
      title={isNew ? 'Add Site' : (site?.name ?? 'Site')}
      id={id}
      tabs={tabs}
      initialValues={siteToForm(site)}
      onSave={(values) => save.mutateAsync({ id, body: formToSite(values) })}
      onDelete={() => remove.mutateAsync(id)}
      parentPath="/sites"
      canModify={perms.can('sites', 'modify')}
      canCreate={perms.can('sites', 'create')}
      canDelete={perms.can('sites', 'delete')}
    />
  );
}

export default function SiteEditPage() {
  const { id = 'new' } = useParams();
  const query = useSite(id);
  if (id === 'new') return <SiteEditor key="new" id={id} site={undefined} />;
  return (
    <LoadGate query={query} name="site">
      {(site) => <SiteEditor key={site._id} id={id} site={site} />}
    </LoadGate>
  );
}
