import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { PRODUCT_NAME } from '../../constants';

/** The product mark: a tag glyph and the name. */
export function Logo() {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25 }} data-testid="logo">
      <Box
        component="svg"
        viewBox="0 0 32 32"
        sx={{ width: 32, height: 32, flexShrink: 0 }}
        aria-hidden="true"
      >
        <rect width="32" height="32" rx="7" fill="#1565c0" />
        <path d="M9 10h14v3.5h-5.2V24h-3.6V13.5H9z" fill="#fff" />
        <circle cx="24" cy="23" r="2.4" fill="#4fc3f7" />
      </Box>
      <Typography
        component="span"
        sx={{
          fontWeight: 700,
          fontSize: '1.2rem',
          letterSpacing: '-0.01em',
          color: 'text.primary',
        }}
      >
        {PRODUCT_NAME}
      </Typography>
    </Box>
  );
}
