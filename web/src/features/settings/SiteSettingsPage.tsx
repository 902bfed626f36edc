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
import { useMemo, useState, type ReactNode } from 'react';
import { errorText } from '../../api/client';
import type { SiteSettings } from '../../api/types';
import { LoadGate } from '../../components/LoadGate';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/Snackbar';
import { DEFAULT_LABELS } from '../../constants';
import { useCategoryOptions } from '../categories/queries';
import { useSiteSelection } from '../session/SiteContext';
import { usePermissions } from '../session/queries';
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

function SettingsEditor({ site, loaded }: { site: string; loaded: SiteSettings }) {
  const perms = usePermissions();
  const save = useSaveSiteSettings();
  const snackbar = useSnackbar();
  const categories = useCategoryOptions();
  const [form, setForm] = useState<SiteSettingsForm>(() => settingsToForm(loaded));
  const readOnly = !perms.can('sites', 'modify');
  const set = <K extends keyof SiteSettingsForm>(key: K, value: SiteSettingsForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const text = (key: keyof SiteSettingsForm, label: string, placeholder?: string) => ({
    label,
    value: form[key] as string,
    placeholder,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    slotProps: { input: { readOnly }, inputLabel: { shrink: true }, htmlInput: { maxLength: 50 } },
  });
  const check = (key: keyof SiteSettingsForm, label: string) => (
    <FormControlLabel
      label={label}
      control={
        <Checkbox
          checked={form[key] as boolean}
          disabled={readOnly}
          onChange={(e) => set(key, e.target.checked as never)}
        />
      }
    />
  );
  const options = useMemo(() => categories.data ?? [], [categories.data]);
  const names = useMemo(() => new Map(options.map((c) => [c.id, c.name])), [options]);

  const onSave = async () => {
    try {
      const saved = await save.mutateAsync({ site, body: formToSettings(form, loaded) });
      setForm(settingsToForm(saved));
      snackbar.notify('Saved');
    } catch (err) {
      snackbar.error(`Failed to save: ${errorText(err)}`);
    }
  };

  return (
    <Box
      component="form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
      sx={{ display: 'grid', gap: 2, maxWidth: 960 }}
    >
      <Section title="Labels">
        <TextField {...text('itemLabel', 'Item Label', DEFAULT_LABELS.item)} />
        <TextField
          {...text('workerLabel', 'Worker Label', DEFAULT_LABELS.worker)}
          disabled={form.hideWorkers}
        />
        <TextField {...text('itemNameLabel', 'Item Name Label', DEFAULT_LABELS.itemName)} />
        <TextField {...text('itemSerialLabel', 'Item Serial Label', DEFAULT_LABELS.itemSerial)} />
        {check('hideWorkers', 'Hide Workers')}
      </Section>
      <Section title="Things and events">
        <Autocomplete
          multiple
          options={options.map((c) => c.id)}
          value={form.parentCategories}
          getOptionLabel={(id) => names.get(id) ?? id}
          onChange={(_e, value) => set('parentCategories', value)}
          readOnly={readOnly}
          renderValue={(value, getItemProps) =>
            value.map((id, index) => {
              const { key, ...itemProps } = getItemProps({ index });
              return <Chip key={key} size="small" label={names.get(id) ?? id} {...itemProps} />;
            })
          }
          renderInput={(params) => <TextField {...params} label="Parent Categories" />}
          sx={{ gridColumn: '1 / -1' }}
        />
        {check('showLabelHeader', 'Show Label Header In Thing List')}
        {check('flattenEventsExports', 'Flatten Events Export')}
      </Section>
      <Section title="Tags and import">
        <TextField
          {...text('orgTagPrefix', 'Tag Prefix')}
          slotProps={{ input: { readOnly }, htmlInput: { maxLength: 32 } }}
        />
        {check('prefixedTagDupCheck', 'Prefixed Tag Duplicate Check')}
        {check('generatePrefixTag', 'Generate Prefix Tag')}
        {check('requireZone', 'Require Zone On Import')}
      </Section>
      {!readOnly && (
        <Box>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            Save
          </Button>
        </Box>
      )}
    </Box>
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
