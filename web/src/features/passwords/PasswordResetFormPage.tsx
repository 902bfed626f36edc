import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type SyntheticEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { useSnackbar } from '../../components/Snackbar';
import { TextInput } from '../../components/TextInput';
import { AuthCard, ReturnToLoginLink } from '../auth/AuthCard';
import { usePasswordReset } from './queries';
import { passwordProblem } from '../users/passwordRule';
import { usernameFromToken } from './resetToken';

const PASSWORD_TOO_WEAK = 'Password too weak';

export default function PasswordResetFormPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const reset = usePasswordReset();
  const token = params.get('token');
  const username = usernameFromToken(token);
  const [password, setPassword] = useState('');
  const [verify, setVerify] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const mismatch = verify !== '' && password !== verify;
  // The server checks strength fully (zxcvbn); the length rule is known up front.
  const weak = password !== '' && passwordProblem(password) !== null;

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (!password) {
      snackbar.error('Please enter a valid password');
      return;
    }
    if (weak) {
      snackbar.error(PASSWORD_TOO_WEAK);
      return;
    }
    if (password !== verify) {
      snackbar.error('Passwords must match');
      return;
    }
    reset.mutate(
      { password, token: token ?? '' },
      {
        onSuccess: () => {
          snackbar.notify('Your password has been changed');
          void navigate('/login');
        },
        onError: (err) =>
          snackbar.error(
            err instanceof ApiError && err.reason === 'password too weak'
              ? 'Password must be stronger.'
              : 'Your password reset token is invalid, please contact support.',
          ),
      },
    );
  };

  return (
    <AuthCard title="Reset your password">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {!token && (
            <Alert severity="warning">
              This page needs the link from your password reset email.
            </Alert>
          )}
          {username && (
            <Typography variant="body2" color="text.secondary" align="center">
              Choose a new password for <strong>{username}</strong>
            </Typography>
          )}
          <TextInput
            label="New Password"
            type="password"
            autoComplete="new-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={submitted && (!password || weak)}
            helperText={
              submitted && !password
                ? 'Please enter a valid password'
                : submitted && weak
                  ? PASSWORD_TOO_WEAK
                  : undefined
            }
            size="medium"
          />
          <TextInput
            label="Verify Password"
            type="password"
            autoComplete="new-password"
            value={verify}
            onChange={(e) => setVerify(e.target.value)}
            error={mismatch}
            helperText={mismatch ? 'Passwords are not the same' : undefined}
            size="medium"
          />
          <Button type="submit" variant="contained" size="large" disabled={reset.isPending}>
            Reset Password
          </Button>
          <ReturnToLoginLink />
        </Stack>
      </Box>
    </AuthCard>
  );
}
