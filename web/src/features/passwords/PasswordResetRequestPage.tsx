import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type SyntheticEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { isEmail } from '../../components/formRules';
import { useSnackbar } from '../../components/Snackbar';
import { TextInput } from '../../components/TextInput';
import { AuthCard, ReturnToLoginLink } from '../auth/AuthCard';
import { usePasswordResetRequest } from './queries';

export default function PasswordResetRequestPage() {
  const navigate = useNavigate();
  const snackbar = useSnackbar();
  const request = usePasswordResetRequest();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const invalid = !isEmail(email);

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setTouched(true);
    if (invalid) {
      snackbar.error('Please enter a valid email address');
      return;
    }
    request.mutate(email.trim(), {
      onSuccess: () => void navigate('/passwordreset/confirm'),
      onError: (err) => snackbar.error(`Error: ${errorText(err)}`),
    });
  };

  return (
    <AuthCard title="Forgot your password?">
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            Enter the email address of your account and we will send you a link to reset your
            password.
          </Typography>
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            onBlur={() => setTouched(email !== '')}
            error={touched && invalid}
            helperText={touched && invalid ? 'Not a valid email address' : undefined}
            size="medium"
          />
          <Button type="submit" variant="contained" size="large" disabled={request.isPending}>
            Send Reset Link
          </Button>
          <ReturnToLoginLink />
        </Stack>
      </Box>
    </AuthCard>
  );
}
