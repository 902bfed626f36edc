import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';
import type { DatePickerProps } from '@mui/x-date-pickers/DatePicker';
import type { Dayjs } from 'dayjs';
import { lazy, startTransition, Suspense, useEffect, useState } from 'react';
import type DateFieldPicker from './DateFieldPicker';
import { TextInput } from './TextInput';

// The pickers (about 60 KiB gzipped) are not needed to show a screen: its dates show in plain
// fields first, and the pickers take their place once loaded, without holding the first paint.
let pickerModule: Promise<{ default: typeof DateFieldPicker }> | undefined;
const loadPicker = () => (pickerModule ??= import('./DateFieldPicker'));
const Picker = lazy(loadPicker);
let pickerLoaded = false;

function usePickerLoaded(): boolean {
  const [loaded, setLoaded] = useState(pickerLoaded);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadPicker().then(() => {
      pickerLoaded = true;
      // A transition renders the pickers in short slices, never one long task.
      if (live) startTransition(() => setLoaded(true));
    });
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}

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
  const loaded = usePickerLoaded();
  const plain = <PlainDateField label={props.label} value={props.value} sx={fieldSx} />;
  if (!loaded) return plain;
  return (
    <Suspense fallback={plain}>
      <Picker {...props} onChange={(d) => onChange(d)} />
    </Suspense>
  );
}
