import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useSiteSelection } from '../features/access/SiteContext';
import type { FieldDef } from './FormField';
import { ALL_SITES_ID } from '../constants';

export interface RecordSite<V> {
  /** The record's site: its own, else the selected one ('' while All Sites and none chosen). */
  site: string;
  /**
   * The Site select, shown only for a new record while All Sites is selected (a record
   * belongs to one real site); hidden otherwise, keeping the form's `site` value.
   */
  field: FieldDef<V>;
}

/** The site a site-scoped record (endpoint, zone, location tag) belongs to, and its field. */
export function useRecordSite<V>(recordSite: string | undefined): RecordSite<V> {
  const selection = useSiteSelection();
  const isNew = recordSite === undefined;
  const initial = recordSite ?? (selection.isAllSites ? '' : (selection.siteId ?? ''));
  const [site, setSite] = useState(initial);
  const options = useMemo(
    () => selection.sites.filter((s) => s.id !== ALL_SITES_ID),
    [selection.sites],
  );
  const field: FieldDef<V> = {
    name: 'site',
    label: 'Site',
    kind: 'custom',
    required: true,
    wide: true,
    hidden: !(isNew && selection.isAllSites),
    render: ({ value, onChange, readOnly, invalid }) => (
      <TextField
        select
        label="Site"
        required
        value={typeof value === 'string' ? value : ''}
        disabled={readOnly}
        error={invalid}
        onChange={(e) => {
          setSite(e.target.value);
          onChange(e.target.value);
        }}
      >
        {options.map((o) => (
          <MenuItem key={o.id} value={o.id}>
            {o.name}
          </MenuItem>
        ))}
      </TextField>
    ),
  };
  return { site, field };
}
