import InboxOutlined from '@mui/icons-material/InboxOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export function EmptyState({ message, icon }: { message: ReactNode; icon?: ReactNode }) {
  return (
    <Box
      data-testid="empty-state"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        py: 5,
        px: 2,
        color: 'text.secondary',
        textAlign: 'center',
        height: '100%',
      }}
    >
      {icon ?? <InboxOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
      <Typography variant="body2">{message}</Typography>
    </Box>
  );
}
