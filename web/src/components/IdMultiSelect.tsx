import TextField from '@mui/material/TextField';
import { Autocomplete } from './Autocomplete';

export interface NamedOption {
  id: string;
  name: string;
}

/** A filter bar's choice of several named records by id; none chosen reads 'All'. */
export function IdMultiSelect({
  label,
  options,
  value,
  onChange,
  loading = false,
  disabled = false,
  maxWidth,
}: {
  label: string;
  options: readonly NamedOption[];
  value: readonly string[];
  onChange: (ids: string[]) => void;
  loading?: boolean;
  disabled?: boolean;
  /** From the small breakpoint up. */
  maxWidth: number;
}) {
  const selected = options.filter((o) => value.includes(o.id));
  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={selected}
      loading={loading}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onChange={(_e, chosen) => onChange(chosen.map((o) => o.id))}
      disableCloseOnSelect
      disabled={disabled}
      limitTags={2}
      sx={{ flex: '1 1 240px', minWidth: { xs: '100%', sm: 240 }, maxWidth: { sm: maxWidth } }}
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder={selected.length ? '' : 'All'} />
      )}
    />
  );
}
