import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';

/** Free text values as chips (tags, categories, labels): type, then Enter. */
export function ChipsInput({
  label,
  value,
  onChange,
  readOnly,
}: {
  label: string;
  value: unknown;
  onChange: (v: string[]) => void;
  readOnly: boolean;
}) {
  const values = Array.isArray(value) ? (value as string[]) : [];
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      options={[] as string[]}
      value={values}
      disabled={readOnly}
      onChange={(_e, next) => {
        const trimmed = next.map((v) => v.trim()).filter((v) => v !== '');
        onChange([...new Set(trimmed)]);
      }}
      renderValue={(items, getItemProps) =>
        items.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip key={key} size="small" label={option} {...itemProps} sx={{ maxWidth: '100%' }} />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          placeholder={readOnly ? undefined : 'Type, then Enter'}
        />
      )}
    />
  );
}
