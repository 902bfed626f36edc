import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderAt, findCall } from '../../test/utils';
import { afterLoginPath, loginFailureMessage } from './loginMessages';
import { ApiError } from '../../api/client';
import LoginPage from './LoginPage';

const me = {
  id: 'u1',
  name: 'Ada',
  username: 'ada@example.com',
  roles: ['r1'],
  securityCtx: { sites: [], companies: [] },
  superAdmin: false,
  orgId: 'o1',
};

function renderLogin(route = '/login') {
  return renderAt(<LoginPage />, { path: '/login', route });
}

async function signIn(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'secret{Enter}');
}

describe('LoginPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['rate limited', 429, 'Too many recent failed logins: wait a minute and try again'],
    [
      'account locked',
      401,
      'Too many recent failed logins: use Forgot My Password to unlock your account',
    ],
    ['invalid credentials', 401, 'Invalid username or password'],
  ])('shows the message for reason %s', async (reason, status, message) => {
    mockApi({ 'POST /api/auth/login': { status, body: { reason, message: 'x' } } });
    const user = userEvent.setup();
    renderLogin();
    await signIn(user);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
  });

  it('submits with Enter and goes to the referer', async () => {
    const { calls } = mockApi({ 'POST /api/auth/login': { body: me } });
    const user = userEvent.setup();
    renderLogin('/login?referer=%2Fsites%3Fsite%3Da');
    await signIn(user);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sites?site=a'));
    const login = findCall(calls, (c) => c.url.endsWith('/api/auth/login'));
    expect(await login.json()).toEqual({ username: 'ada@example.com', password: 'secret' });
  });

  it('goes to items without a usable referer', async () => {
    mockApi({ 'POST /api/auth/login': { body: me } });
    const user = userEvent.setup();
    renderLogin('/login?referer=%2Flogin');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/items$/));
  });

  it('shows SSO buttons with an OR divider only when available', async () => {
    mockApi({
      'GET /api/auth/okta/available': { body: { available: true } },
      'GET /api/auth/entra/available': { status: 500, body: { reason: 'x', message: 'down' } },
    });
    renderLogin();
    const okta = await screen.findByRole('link', { name: 'Login with Okta' });
    expect(okta).toHaveAttribute('href', '/api/auth/okta/redirect');
    expect(screen.getByText('OR')).toBeInTheDocument();
    expect(screen.queryByText('Login with Entra')).not.toBeInTheDocument();
  });

  it('offers only what is set up, and passes the referer on to the sign-in', async () => {
    mockApi({
      'GET /api/auth/okta/available': { body: { available: false, enabled: true } },
      'GET /api/auth/entra/available': { body: { available: true, enabled: true } },
    });
    renderLogin('/login?referer=%2Fusers%3Fsite%3Ds1');
    const entra = await screen.findByRole('link', { name: 'Login with Entra' });
    expect(entra).toHaveAttribute(
      'href',
      `/api/auth/entra/redirect?referer=${encodeURIComponent('/users?site=s1')}`,
    );
    expect(screen.queryByText('Login with Okta')).not.toBeInTheDocument();
  });

  it('shows no divider without SSO', async () => {
    mockApi({});
    renderLogin();
    expect(screen.getByRole('link', { name: 'Forgot My Password' })).toHaveAttribute(
      'href',
      '/passwordreset/request',
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText('OR')).not.toBeInTheDocument();
  });

  it('shows a dismissible SSO error', async () => {
    mockApi({});
    const user = userEvent.setup();
    renderLogin('/login?error=access%20denied');
    expect(screen.getByText('SSO error: access denied')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /close/i }));
    expect(screen.queryByText(/SSO error/)).not.toBeInTheDocument();
  });
});

describe('login rules', () => {
  it('maps reasons to the catalogue texts', () => {
    expect(loginFailureMessage(new ApiError(401, 'rate limited', ''))).toMatch(/wait a minute/);
    expect(loginFailureMessage(new Error('network'))).toBe('Invalid username or password');
  });

  it('follows the referer unless empty or a login page', () => {
    expect(afterLoginPath(null)).toBe('/items');
    expect(afterLoginPath('')).toBe('/items');
    expect(afterLoginPath('/login?x=1')).toBe('/items');
    expect(afterLoginPath('/users')).toBe('/users');
    expect(afterLoginPath('users')).toBe('/users');
  });
});
