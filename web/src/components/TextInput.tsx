import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useTheme } from '@mui/material/styles';
import { useId, type ChangeEvent, type ReactNode } from 'react';

interface TextInputProps {
  label: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur?: () => void;
  type?: string;
  autoComplete?: string;
  autoFocus?: boolean;
  readOnly?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  size?: 'small' | 'medium';
  fullWidth?: boolean;
}

/**
 * An outlined text field drawn as MUI's TextField draws one, without TextField's select mode:
 * that mode brings menu, popover and modal code the signed-out pages never use.
 */
export function TextInput({
  label,
  helperText,
  error = false,
  size,
  fullWidth,
  ...input
}: TextInputProps) {
  // The theme's TextField defaults (size, full width) apply here too.
  const defaults = useTheme().components?.MuiTextField?.defaultProps;
  const id = useId();
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const wide = fullWidth ?? defaults?.fullWidth ?? false;
  return (
    <FormControl
      className="MuiTextField-root"
      variant="outlined"
      size={size ?? defaults?.size}
      fullWidth={wide}
      error={error}
    >
      <InputLabel htmlFor={id} id={`${id}-label`}>
        {label}
      </InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        fullWidth={wide}
        aria-describedby={helperTextId}
        {...input}
      />
      {helperText && <FormHelperText id={helperTextId}>{helperText}</FormHelperText>}
    </FormControl>
  );
}
