import { Autocomplete } from '../../components/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { ChipsInput } from '../../components/ChipsInput';
import { useCategoryOptions } from '../categories/queries';
import { useImageTags } from './queries';

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

/** Free tags (green chips): the organization's tags are suggested while typing; Enter adds. */
export function TagPicker({
  label,
  value,
  onChange,
  readOnly = false,
  size = 'medium',
}: {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  readOnly?: boolean;
  size?: 'small' | 'medium';
}) {
  const [typed, setTyped] = useState('');
  const suggestions = useImageTags(typed, !readOnly);
  return (
    <ChipsInput
      label={label}
      value={value}
      onChange={onChange}
      readOnly={readOnly}
      size={size}
      color="success"
      suggestions={suggestions.data ?? []}
      onTyping={setTyped}
      placeholder="Type and press Enter"
    />
  );
}
