import { Autocomplete } from './Autocomplete';
import Chip from '@mui/material/Chip';
import TextField, { type TextFieldProps } from '@mui/material/TextField';

/** A form value as the chips' list: anything but an array is no chips. */
export function chipValues(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * Free text values as chips (tags, categories, labels, email addresses): type, then Enter.
 * Suggestions, when given, are offered while typing; anything else typed is taken as it is.
 */
export function ChipsInput({
  label,
  value,
  onChange,
  readOnly = false,
  disabled = false,
  size = 'medium',
  color = 'default',
  suggestions = [],
  onTyping,
  placeholder = 'Type, then Enter',
  distinct = true,
  chipColor,
  onBlur,
  inputProps,
}: {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  readOnly?: boolean;
  disabled?: boolean;
  size?: 'small' | 'medium';
  color?: 'default' | 'success';
  suggestions?: string[];
  /** The text being typed, to fetch suggestions for it. */
  onTyping?: (text: string) => void;
  placeholder?: string;
  /** Drops repeated values (a list of addresses keeps them, for its rule to name). */
  distinct?: boolean;
  /** A chip's own color, e.g. red for a value that breaks the field's rule. */
  chipColor?: (value: string) => 'default' | 'success' | 'error';
  onBlur?: () => void;
  /** The text field's form bindings: required, error, helper text, name, ref. */
  inputProps?: Pick<TextFieldProps, 'required' | 'error' | 'helperText' | 'name' | 'inputRef'>;
}) {
  return (
    <Autocomplete
      multiple
      freeSolo
      autoSelect
      filterSelectedOptions
      size={size}
      readOnly={readOnly}
      disabled={disabled}
      options={suggestions}
      value={value}
      onInputChange={(_e, text) => onTyping?.(text.trim())}
      onChange={(_e, next) => {
        const trimmed = next.map((v) => v.trim()).filter((v) => v !== '');
        onChange(distinct ? [...new Set(trimmed)] : trimmed);
      }}
      onBlur={onBlur}
      renderValue={(items, getItemProps) =>
        items.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip
              key={key}
              size="small"
              color={chipColor ? chipColor(option) : color}
              label={option}
              {...itemProps}
              sx={{ maxWidth: '100%' }}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField
          {...params}
          {...inputProps}
          label={label}
          placeholder={readOnly || disabled ? undefined : placeholder}
        />
      )}
    />
  );
}
