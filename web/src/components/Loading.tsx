import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

export function Loading({
  label = 'Loading',
  minHeight = 200,
}: {
  label?: string;
  minHeight?: number | string;
}) {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight }}>
      <CircularProgress size={32} aria-label={label} />
    </Box>
  );
}
