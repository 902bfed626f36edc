import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import dayjs from 'dayjs';
import { lastDays, type DateRangeValue } from './format';

export type { DateRangeValue } from './format';

export const QUICK_RANGES = [
  { label: 'Today', days: 1 },
  { label: 'Last 7 Days', days: 7 },
  { label: 'Last 30 Days', days: 30 },
] as const;

/** Start and End Date pickers with the quick ranges; the range covers whole days. */
export function DateRange({
  value,
  onChange,
  disableFuture = false,
  showShortcuts = true,
}: {
  value: DateRangeValue;
  onChange: (range: DateRangeValue) => void;
  disableFuture?: boolean;
  showShortcuts?: boolean;
}) {
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
      data-testid="date-range"
    >
      <DatePicker
        label="Start Date"
        value={value.start}
        disableFuture={disableFuture}
        maxDate={value.end}
        onChange={(d) => d && d.isValid() && onChange({ ...value, start: d.startOf('day') })}
        slotProps={{ textField: { size: 'small', sx: { width: { xs: '100%', sm: 180 } } } }}
      />
      <DatePicker
        label="End Date"
        value={value.end}
        disableFuture={disableFuture}
        minDate={value.start}
        onChange={(d) => d && d.isValid() && onChange({ ...value, end: d.endOf('day') })}
        slotProps={{ textField: { size: 'small', sx: { width: { xs: '100%', sm: 180 } } } }}
      />
      {showShortcuts && (
        <ButtonGroup variant="outlined" size="small" aria-label="Quick ranges">
          {QUICK_RANGES.map((r) => (
            <Button key={r.label} onClick={() => onChange(lastDays(r.days, dayjs()))}>
              {r.label}
            </Button>
          ))}
        </ButtonGroup>
      )}
    </Box>
  );
}
