import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** The filters above a list or report: they wrap on small screens and are not printed. */
export function FilterBar({ children }: { children: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 1.5,
        alignItems: 'center',
        mb: 2,
        '@media print': { display: 'none' },
      }}
    >
      {children}
    </Box>
  );
}
