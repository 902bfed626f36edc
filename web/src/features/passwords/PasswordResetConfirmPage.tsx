import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { AuthCard } from '../auth/AuthCard';

export default function PasswordResetConfirmPage() {
  const navigate = useNavigate();
  return (
    <AuthCard title="Check your email">
      <Stack spacing={3}>
        <Typography variant="body2" color="text.secondary" align="center">
          If the email address matches an active account, a link to reset your password has been
          sent to it.
        </Typography>
        <Button variant="contained" size="large" onClick={() => void navigate('/login')}>
          Return to Login
        </Button>
      </Stack>
    </AuthCard>
  );
}
