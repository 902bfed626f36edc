import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonGroup from '@mui/material/ButtonGroup';
import dayjs, { type Dayjs } from 'dayjs';
import { lastDays, type DateRangeValue } from './format';
import { DateField } from './DateField';

export type { DateRangeValue } from './format';

export interface QuickRange {
  label: string;
  range: (now: Dayjs) => DateRangeValue;
}

export const QUICK_RANGES: readonly QuickRange[] = [
  { label: 'Today', range: (now) => lastDays(1, now) },
  { label: 'Last 7 Days', range: (now) => lastDays(7, now) },
  { label: 'Last 30 Days', range: (now) => lastDays(30, now) },
];

/** A range that may be unset (no date filter); picking one date sets both ends. */
export interface OptionalDateRange {
  start: Dayjs | null;
  end: Dayjs | null;
}

const FIELD_WIDTH = { width: { xs: '100%', sm: 180 } } as const;
const FIELD_PROPS = { textField: { size: 'small', sx: FIELD_WIDTH } } as const;

/**
 * Start and End Date pickers with the quick ranges; the range covers whole days. `now` is
 * the clock whose days count (a site's, see siteClock.ts); the browser's by default.
 */
export function DateRange({
  value,
  onChange,
  disableFuture = false,
  showShortcuts = true,
  shortcuts = QUICK_RANGES,
  now = dayjs,
}: {
  value: DateRangeValue | OptionalDateRange;
  onChange: (range: DateRangeValue) => void;
  disableFuture?: boolean;
  showShortcuts?: boolean;
  shortcuts?: readonly QuickRange[];
  now?: () => Dayjs;
}) {
  const today = disableFuture ? now().endOf('day') : undefined;
  // A typed date the picker shows as invalid (after today, or past the other end while the
  // year is typed digit by digit) is never applied.
  const allowed = (d: Dayjs | null, min: Dayjs | null, max: Dayjs | null): d is Dayjs =>
    !!d &&
    d.isValid() &&
    !(today && d.isAfter(today, 'day')) &&
    !(min && d.isBefore(min, 'day')) &&
    !(max && d.isAfter(max, 'day'));
  return (
    <Box
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}
      data-testid="date-range"
    >
      <DateField
        label="Start Date"
        fieldSx={FIELD_WIDTH}
        slotProps={FIELD_PROPS}
        value={value.start}
        maxDate={value.end ?? today}
        onChange={(d) =>
          allowed(d, null, value.end) &&
          onChange({ start: d.startOf('day'), end: value.end ?? d.endOf('day') })
        }
      />
      <DateField
        label="End Date"
        fieldSx={FIELD_WIDTH}
        slotProps={FIELD_PROPS}
        value={value.end}
        maxDate={today}
        minDate={value.start ?? undefined}
        onChange={(d) =>
          allowed(d, value.start, null) &&
          onChange({ start: value.start ?? d.startOf('day'), end: d.endOf('day') })
        }
      />
      {showShortcuts && (
        <ButtonGroup variant="outlined" size="small" aria-label="Quick ranges">
          {shortcuts.map((r) => (
            <Button key={r.label} onClick={() => onChange(r.range(now()))}>
              {r.label}
            </Button>
          ))}
        </ButtonGroup>
      )}
    </Box>
  );
}
