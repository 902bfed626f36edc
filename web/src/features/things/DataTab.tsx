import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import type { Thing } from '../../api/types';

/** The thing's sensor data (data.cFloat0 and any other value), read-only. */
export function DataTab({ thing }: { thing: Thing }) {
  const data: Record<string, unknown> = { cFloat0: null, ...(thing.data ?? {}) };
  return (
    <Box
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2 }}
      data-testid="thing-data"
    >
      {Object.entries(data).map(([key, value]) => (
        <TextField
          key={key}
          label={key}
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- sensor values are shown as String() prints them
          value={value === null || value === undefined ? '' : String(value)}
          placeholder="No value"
          slotProps={{ input: { readOnly: true }, inputLabel: { shrink: true } }}
        />
      ))}
    </Box>
  );
}
