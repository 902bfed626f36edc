import Alert from '@mui/material/Alert';
import { Autocomplete } from '../../components/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import { useMemo, type ReactNode } from 'react';
import { failureText } from '../../api/client';
import type { SiteSettings } from '../../api/types';
import { DetailForm } from '../../components/DetailForm';
import type { FieldDef } from '../../components/FormField';
import { LoadGate } from '../../components/LoadGate';
import { PageHeader } from '../../components/PageHeader';
import { DEFAULT_LABELS } from '../../constants';
import { useCategoryOptions } from '../categories/queries';
import { useSiteSelection } from '../access/SiteContext';
import { usePermissions } from '../access/queries';
import { useSaveSiteSettings, useSiteSettings } from './queries';
import { formToSettings, settingsToForm, type SiteSettingsForm } from './siteSettingsForm';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardHeader
        title={title}
        slotProps={{ title: { variant: 'subtitle1', component: 'h2', fontWeight: 600 } }}
        sx={{ borderBottom: 1, borderColor: 'divider', py: 1.25 }}
      />
      <CardContent
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' },
          alignItems: 'center',
        }}
      >
        {children}
      </CardContent>
    </Card>
  );
}

type Render = NonNullable<FieldDef<SiteSettingsForm>['render']>;

const textField =
  (label: string, placeholder?: string, maxLength = 50): Render =>
  ({ value, onChange, readOnly, disabled }) => (
    <TextField
      label={label}
      value={value}
      placeholder={placeholder}
      disabled={disabled}
      onChange={(e) => onChange(e.target.value)}
      slotProps={{
        input: { readOnly },
        inputLabel: placeholder === undefined ? undefined : { shrink: true },
        htmlInput: { maxLength },
      }}
    />
  );

const checkField =
  (label: string): Render =>
  ({ value, onChange, readOnly }) => (
    <FormControlLabel
      label={label}
      control={
        <Checkbox
          checked={value as boolean}
          disabled={readOnly}
          onChange={(e) => onChange(e.target.checked)}
        />
      }
    />
  );

function SettingsEditor({ site, loaded }: { site: string; loaded: SiteSettings }) {
  const perms = usePermissions();
  const save = useSaveSiteSettings();
  const categories = useCategoryOptions();
  const options = useMemo(() => categories.data ?? [], [categories.data]);
  const names = useMemo(() => new Map(options.map((c) => [c.id, c.name])), [options]);
  const canModify = perms.can('sites', 'modify');

  const fields: FieldDef<SiteSettingsForm>[] = [
    {
      name: 'itemLabel',
      label: 'Item Label',
      kind: 'custom',
      render: textField('Item Label', DEFAULT_LABELS.item),
    },
    {
      name: 'workerLabel',
      label: 'Worker Label',
      kind: 'custom',
      disabled: (values) => values.hideWorkers,
      render: textField('Worker Label', DEFAULT_LABELS.worker),
    },
    {
      name: 'itemNameLabel',
      label: 'Item Name Label',
      kind: 'custom',
      render: textField('Item Name Label', DEFAULT_LABELS.itemName),
    },
    {
      name: 'itemSerialLabel',
      label: 'Item Serial Label',
      kind: 'custom',
      render: textField('Item Serial Label', DEFAULT_LABELS.itemSerial),
    },
    {
      name: 'hideWorkers',
      label: 'Hide Workers',
      kind: 'custom',
      render: checkField('Hide Workers'),
    },
    {
      name: 'parentCategories',
      label: 'Parent Categories',
      kind: 'custom',
      render: ({ value, onChange, readOnly }) => (
        <Autocomplete
          multiple
          fullWidth
          options={options.map((c) => c.id)}
          value={value as string[]}
          getOptionLabel={(id) => names.get(id) ?? id}
          onChange={(_e, next) => onChange(next)}
          readOnly={readOnly}
          renderValue={(chosen, getItemProps) =>
            chosen.map((id, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return <Chip key={key} size="small" label={names.get(id) ?? id} {...itemProps} />;
            })
          }
          renderInput={(params) => <TextField {...params} label="Parent Categories" />}
          sx={{ gridColumn: '1 / -1' }}
        />
      ),
    },
    {
      name: 'showLabelHeader',
      label: 'Show Label Header In Thing List',
      kind: 'custom',
      render: checkField('Show Label Header In Thing List'),
    },
    {
      name: 'flattenEventsExports',
      label: 'Flatten Events Export',
      kind: 'custom',
      render: checkField('Flatten Events Export'),
    },
    {
      name: 'orgTagPrefix',
      label: 'Tag Prefix',
      kind: 'custom',
      render: textField('Tag Prefix', undefined, 32),
    },
    {
      name: 'prefixedTagDupCheck',
      label: 'Prefixed Tag Duplicate Check',
      kind: 'custom',
      render: checkField('Prefixed Tag Duplicate Check'),
    },
    {
      name: 'generatePrefixTag',
      label: 'Generate Prefix Tag',
      kind: 'custom',
      render: checkField('Generate Prefix Tag'),
    },
    {
      name: 'requireZone',
      label: 'Require Zone On Import',
      kind: 'custom',
      render: checkField('Require Zone On Import'),
    },
  ];

  return (
    <DetailForm<SiteSettingsForm, SiteSettings>
      name="settings"
      title="Settings"
      id={site}
      tabs={[{ label: 'Settings', fields }]}
      initialValues={settingsToForm(loaded)}
      onSave={(values) => save.mutateAsync({ site, body: formToSettings(values, loaded) })}
      saveAndStay
      savedValues={settingsToForm}
      savedMessage="Saved"
      formatError={(err) => failureText('Failed to save', err)}
      canModify={canModify}
      layout={({ field, readOnly, busy }) => (
        <Box sx={{ display: 'grid', gap: 2, maxWidth: 960 }}>
          <Section title="Labels">
            {field('itemLabel')}
            {field('workerLabel')}
            {field('itemNameLabel')}
            {field('itemSerialLabel')}
            {field('hideWorkers')}
          </Section>
          <Section title="Things and events">
            {field('parentCategories')}
            {field('showLabelHeader')}
            {field('flattenEventsExports')}
          </Section>
          <Section title="Tags and import">
            {field('orgTagPrefix')}
            {field('prefixedTagDupCheck')}
            {field('generatePrefixTag')}
            {field('requireZone')}
          </Section>
          {!readOnly && (
            <Box>
              <Button type="submit" variant="contained" disabled={busy}>
                Save
              </Button>
            </Box>
          )}
        </Box>
      )}
    />
  );
}

/** The selected site's settings: labels (used at once across the console), things, import. */
export default function SiteSettingsPage() {
  const { siteId, site, isAllSites } = useSiteSelection();
  const query = useSiteSettings(siteId);
  return (
    <Box>
      <PageHeader title="Settings" subtitle={isAllSites ? undefined : site?.name} />
      {isAllSites || !siteId ? (
        <Alert severity="info">Choose one site in the menu to see its settings.</Alert>
      ) : (
        <LoadGate query={query} name="settings">
          {(loaded) => <SettingsEditor key={siteId} site={siteId} loaded={loaded} />}
        </LoadGate>
      )}
    </Box>
  );
}
