import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A read-only value under its small label; long text wraps, an empty value shows '—'. */
export function Fact({
  label,
  children,
  testId,
}: {
  label: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ mb: 0.25 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body1', overflowWrap: 'anywhere' }} data-testid={testId}>
        {children || '—'}
      </Box>
    </Box>
  );
}
