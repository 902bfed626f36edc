import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../../app/shell/Logo';

/** The centred card of the signed-out pages (login, password reset). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: { xs: 'flex-start', sm: 'center' },
        justifyContent: 'center',
        bgcolor: 'background.default',
        backgroundImage:
          'linear-gradient(160deg, rgba(21,101,192,0.08) 0%, rgba(0,131,143,0.04) 100%)',
        p: 2,
        pt: { xs: 6, sm: 2 },
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
        <Box sx={{ display: 'flex', justifyContent: 'center', mb: 2 }}>
          <Logo />
        </Box>
        <Typography variant="h6" component="h1" align="center" sx={{ mb: 3 }}>
          {title}
        </Typography>
        {children}
      </Paper>
    </Box>
  );
}

/** The way back to the login page from the password pages. */
export function ReturnToLoginLink() {
  return (
    <Box sx={{ textAlign: 'center' }}>
      <Link component={RouterLink} to="/login" variant="body2">
        Return to Login
      </Link>
    </Box>
  );
}
