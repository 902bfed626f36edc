import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useState, type SyntheticEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { TextInput } from '../../components/TextInput';
import { AuthCard } from './AuthCard';
import { afterLoginPath, loginFailureMessage } from './loginMessages';
import { ssoRedirectUrl, useSsoAvailable } from '../sso/queries';
import { useLogin } from './queries';

export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const login = useLogin();
  const okta = useSsoAvailable('okta');
  const entra = useSsoAvailable('entra');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const ssoError = params.get('error');
  const showOkta = okta.data?.available === true;
  const showEntra = entra.data?.available === true;
  const referer = params.get('referer');

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setFailure(null);
    if (!username.trim() || !password) {
      setFailure(loginFailureMessage(null));
      return;
    }
    login.mutate(
      { username: username.trim(), password },
      {
        onSuccess: () => void navigate(afterLoginPath(params.get('referer')), { replace: true }),
        onError: (err) => setFailure(loginFailureMessage(err)),
      },
    );
  };

  const dismissSsoError = () =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('error');
        return next;
      },
      { replace: true },
    );

  return (
    <AuthCard title="Sign in to your account">
      <Stack spacing={2}>
        {ssoError && (
          <Alert severity="warning" onClose={dismissSsoError} data-testid="sso-error">
            SSO error: {ssoError}
          </Alert>
        )}
        {failure && (
          <Alert severity="error" data-testid="login-error">
            {failure}
          </Alert>
        )}
        <Box component="form" onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <TextInput
              label="Email"
              type="email"
              autoComplete="username"
              autoFocus
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              size="medium"
            />
            <TextInput
              label="Password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              size="medium"
            />
            <Button type="submit" variant="contained" size="large" disabled={login.isPending}>
              Login
            </Button>
          </Stack>
        </Box>
        <Box sx={{ textAlign: 'center' }}>
          <Link component={RouterLink} to="/passwordreset/request" variant="body2">
            Forgot My Password
          </Link>
        </Box>
        {(showOkta || showEntra) && (
          <>
            <Divider>OR</Divider>
            {showOkta && (
              <Button variant="outlined" size="large" href={ssoRedirectUrl('okta', referer)}>
                Login with Okta
              </Button>
            )}
            {showEntra && (
              <Button variant="outlined" size="large" href={ssoRedirectUrl('entra', referer)}>
                Login with Entra
              </Button>
            )}
          </>
        )}
      </Stack>
    </AuthCard>
  );
}
