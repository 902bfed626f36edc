import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminRules, mockApi, renderAt, findCall } from '../../test/utils';
import ProfilePage from './ProfilePage';
import UserEditPage from './UserEditPage';

const me = {
  id: 'me1',
  name: 'Ada',
  username: 'ada@example.com',
  roles: ['r-admin'],
  securityCtx: { sites: ['s1'], companies: [] },
  superAdmin: false,
  orgId: 'o1',
};

function api(extra = {}) {
  return mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/accessRules': { body: adminRules(['users']) },
    'GET /api/roles': {
      body: [
        { id: 'r-admin', name: 'Administrator' },
        { id: 'r-super', name: 'Super Admin' },
        { id: 'r-view', name: 'Viewer' },
      ],
    },
    'GET /api/sites': { body: [{ _id: 's1', name: 'North Yard' }] },
    'POST /api/check/email': { body: { exists: false } },
    ...extra,
  });
}

describe('user edit', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('requires a name, a role and a password for a new user', async () => {
    api();
    const user = userEvent.setup();
    renderAt(<UserEditPage />, { path: '/users/:id', route: '/users/new' });
    expect(await screen.findByRole('heading', { name: /Add User/ })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Name in the Basic tab is a required field.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Please select an item.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reset Password' })).not.toBeInTheDocument();
  });

  it('hides Super Admin from a non super admin', async () => {
    api();
    const user = userEvent.setup();
    renderAt(<UserEditPage />, { path: '/users/:id', route: '/users/new' });
    await user.click(await screen.findByRole('combobox', { name: /Roles/ }));
    await waitFor(() => expect(screen.getAllByRole('option').length).toBe(2));
    expect(screen.queryByRole('option', { name: 'Super Admin' })).not.toBeInTheDocument();
  });

  it('creates a user with an activation email instead of a password', async () => {
    const { calls } = api({ 'POST /api/users': { status: 201, body: { id: 'n1' } } });
    const user = userEvent.setup();
    renderAt(<UserEditPage />, { path: '/users/:id', route: '/users/new' });
    await user.type(await screen.findByLabelText(/^Name/), 'Grace Hopper');
    await user.type(screen.getByLabelText(/^Username/), 'grace@example.com');
    await user.click(screen.getByRole('combobox', { name: /Roles/ }));
    await user.click(await screen.findByRole('option', { name: 'Viewer' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByLabelText('Send activation email'));
    expect(screen.queryByLabelText(/^Password/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved user')).toBeInTheDocument();
    const post = findCall(calls, (c) => c.method === 'POST' && c.url.includes('/api/users'));
    expect(new URL(post.url).searchParams.get('email')).toBe('true');
    expect(await post.json()).toMatchObject({
      name: 'Grace Hopper',
      username: 'grace@example.com',
      roles: ['r-view'],
      password: null,
    });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/users/));
  });

  it('edits a user and offers Reset Password and Delete', async () => {
    api({
      'GET /api/users/u2': {
        body: {
          id: 'u2',
          name: 'Tom',
          username: 'tom@example.com',
          roles: ['r-view'],
          securityCtx: { sites: [], companies: [] },
        },
      },
      'PUT /api/users/u2': { status: 204 },
    });
    const user = userEvent.setup();
    renderAt(<UserEditPage />, { path: '/users/:id', route: '/users/u2' });
    expect(await screen.findByRole('heading', { name: /Edit User/ })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password reset email sent')).toBeInTheDocument();
  });
});

describe('profile', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('needs matching passwords', async () => {
    api();
    const user = userEvent.setup();
    renderAt(<ProfilePage />, { path: '/userme', route: '/userme' });
    await user.type(await screen.findByLabelText('New Password'), 'abcdefgh1');
    await user.type(screen.getByLabelText('Verify Password'), 'abcdefgh2');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
    expect(screen.getByText('Administrator')).toBeInTheDocument();
  });

  it('saves and signs the user out', async () => {
    const { calls } = api({
      'PUT /api/users/me': { body: { ...me, name: 'Ada L' } },
      'POST /api/auth/logout': { status: 204 },
    });
    const user = userEvent.setup();
    renderAt(<ProfilePage />, { path: '/userme', route: '/userme' });
    const name = await screen.findByLabelText(/^Name/);
    await user.clear(name);
    await user.type(name, 'Ada L');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    const put = findCall(calls, (c) => c.method === 'PUT');
    expect(await put.json()).toEqual({
      name: 'Ada L',
      username: 'ada@example.com',
      password: null,
    });
    expect(calls.some((c) => c.url.endsWith('/api/auth/logout'))).toBe(true);
  });
});
