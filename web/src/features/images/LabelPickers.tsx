import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useCategoryOptions } from '../categories/queries';

export interface CategoryChoice {
  id: string;
  name: string;
}

/** Categories to pick from (blue chips); hidden categories already on an image stay shown. */
export function CategoryPicker({
  label,
  value,
  onChange,
  readOnly = false,
  size = 'medium',
}: {
  label: string;
  value: CategoryChoice[];
  onChange: (value: CategoryChoice[]) => void;
  readOnly?: boolean;
  size?: 'small' | 'medium';
}) {
  const options = useCategoryOptions();
  return (
    <Autocomplete
      multiple
      size={size}
      readOnly={readOnly}
      options={(options.data ?? []).map((c) => ({ id: c.id, name: c.name }))}
      value={value}
      onChange={(_, next) => onChange(next)}
      getOptionLabel={(o) => o.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} {...props} label={option.name} size="small" color="primary" />;
        })
      }
      renderInput={(params) => <TextField {...params} label={label} />}
    />
  );
}

/** Free tags (green chips): Enter adds what was typed. */
export function TagPicker({
  label,
  value,
  onChange,
  readOnly = false,
  size = 'medium',
  suggestions = [],
}: {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  readOnly?: boolean;
  size?: 'small' | 'medium';
  suggestions?: string[];
}) {
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      size={size}
      readOnly={readOnly}
      options={suggestions}
      value={value}
      onChange={(_, next) =>
        onChange([...new Set(next.map((t) => String(t).trim()).filter(Boolean))])
      }
      renderValue={(selected, getItemProps) =>
        selected.map((option, index) => {
          const { key, ...props } = getItemProps({ index });
          return <Chip key={key} {...props} label={option} size="small" color="success" />;
        })
      }
      renderInput={(params) => (
        <TextField {...params} label={label} placeholder={readOnly ? '' : 'Type and press Enter'} />
      )}
    />
  );
}
