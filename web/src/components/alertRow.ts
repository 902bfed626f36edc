/** The red of a table row that needs attention (a stale reader, an overstay in a zone). */
export const ALERT_ROW_SX = {
  bgcolor: 'rgba(211, 47, 47, 0.12)',
  color: 'error.dark',
  '&:hover': { bgcolor: 'rgba(211, 47, 47, 0.18)' },
} as const;
