import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { DatePickerProps } from '@mui/x-date-pickers/DatePicker';
import type { Dayjs } from 'dayjs';
import { afterPaint, useAfterPaint } from './afterPaint';
import { TextInput } from './TextInput';

// The pickers (about 60 KiB gzipped) are not needed to show a screen: its dates show in plain
// fields first, and the pickers take their place once loaded, after the screen has painted.
const pickerModule = afterPaint(() => import('./DateFieldPicker'));

/** The date as the picker shows it, read-only, until the picker is there. */
function PlainDateField({
  label,
  value,
  sx,
}: {
  label: string;
  value: Dayjs | null;
  sx?: SxProps<Theme>;
}) {
  return (
    <Box sx={sx}>
      <TextInput
        label={label}
        value={value ? value.format('MM/DD/YYYY') : ''}
        onChange={() => undefined}
        readOnly
        size="small"
        fullWidth
      />
    </Box>
  );
}

export type DateFieldProps = Omit<DatePickerProps, 'value' | 'onChange'> & {
  label: string;
  value: Dayjs | null;
  onChange: (value: Dayjs | null) => void;
  /** The plain field's box while the picker loads (its width). */
  fieldSx?: SxProps<Theme>;
};

/** A date picker (MUI X, dayjs values), drawn as a plain field until its code has loaded. */
export function DateField({ fieldSx, onChange, ...props }: DateFieldProps) {
  const picker = useAfterPaint(pickerModule);
  if (!picker) return <PlainDateField label={props.label} value={props.value} sx={fieldSx} />;
  const Picker = picker.default;
  return <Picker {...props} onChange={(d) => onChange(d)} />;
}
