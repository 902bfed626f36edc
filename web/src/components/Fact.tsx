import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * A read-only value under its small label; an empty value shows '—'. Long text wraps, or
 * with `dense` (smaller, for side panels) is cut with an ellipsis.
 */
export function Fact({
  label,
  children,
  testId,
  dense = false,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
  dense?: boolean;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography
        variant={dense ? 'body2' : 'body1'}
        component="div"
        data-testid={testId}
        sx={
          dense
            ? { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }
            : { overflowWrap: 'anywhere' }
        }
      >
        {children || '—'}
      </Typography>
    </Box>
  );
}
