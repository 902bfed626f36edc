import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LocationProbe, adminRules, mockApi, renderAt, findCall } from '../../test/utils';
import ApiKeyEditPage from './ApiKeyEditPage';

const me = {
  id: 'me1',
  name: 'Ada',
  username: 'ada@example.com',
  roles: ['r-super'],
  securityCtx: { sites: [], companies: [] },
  superAdmin: true,
  orgId: 'o1',
};

const existing = {
  _id: 'k1',
  name: 'Gate reader',
  token: 'tt_AbCdEfGh…',
  roles: ['r-view'],
  securityCtx: { sites: ['s1'] },
  timeCreated: '2026-01-02T03:04:05Z',
  createdBy: 'ada@example.com',
};

function api(extra = {}, ops = { create: true, modify: true, delete: true }) {
  return mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/accessRules': { body: adminRules(['apikeys', 'allsites'], ops) },
    'GET /api/roles': {
      body: [
        { id: 'r-admin', name: 'Administrator' },
        { id: 'r-super', name: 'Super Admin' },
        { id: 'r-view', name: 'Viewer' },
      ],
    },
    'GET /api/sites': { body: [{ _id: 's1', name: 'North Yard' }] },
    'GET /api/apikeys/k1': { body: existing },
    ...extra,
  });
}

const newKey = { path: '/apikeys/:id', route: '/apikeys/new' };

async function pick(user: ReturnType<typeof userEvent.setup>, field: RegExp, option: string) {
  await user.click(screen.getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
  await user.keyboard('{Escape}');
}

describe('API key edit', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('needs a name and at least one role and site', async () => {
    api();
    const user = userEvent.setup();
    renderAt(<ApiKeyEditPage />, newKey);
    expect(await screen.findByRole('heading', { name: /Add API Key/ })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Token/)).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please fill out all required fields')).toBeInTheDocument();
    expect(screen.getAllByText('You must select at least one item')).toHaveLength(2);
    expect(screen.getByText('This field is required')).toBeInTheDocument();
  });

  it('never offers Super Admin, even to a super admin', async () => {
    api();
    const user = userEvent.setup();
    renderAt(<ApiKeyEditPage />, newKey);
    await user.click(await screen.findByRole('combobox', { name: /Roles/ }));
    await waitFor(() => expect(screen.getAllByRole('option').length).toBe(2));
    expect(screen.queryByRole('option', { name: 'Super Admin' })).not.toBeInTheDocument();
  });

  it('shows the whole token once after creating, then the key', async () => {
    const created = { ...existing, _id: 'k2', name: 'ERP', token: 'tt_full-secret-token' };
    const { calls } = api({ 'POST /api/apikeys': { status: 201, body: created } });
    const user = userEvent.setup();
    renderAt(<ApiKeyEditPage />, {
      ...newKey,
      extraRoutes: [{ path: '/apikeys/k2', element: <LocationProbe /> }],
    });
    await user.type(await screen.findByLabelText(/^Name/), 'ERP');
    await pick(user, /Roles/, 'Viewer');
    await pick(user, /Sites/, 'All Sites');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'API key created' });
    expect(within(dialog).getByTestId('new-token')).toHaveValue('tt_full-secret-token');
    const post = findCall(calls, (c) => c.method === 'POST');
    expect(await post.json()).toEqual({
      name: 'ERP',
      roles: ['r-view'],
      securityCtx: { sites: ['000000000000000000000000'] },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByTestId('location')).toHaveTextContent('/apikeys/k2');
  });

  it('shows a failure as status text and server message', async () => {
    api({
      'POST /api/apikeys': {
        status: 400,
        body: { reason: 'unknown role', message: 'Unknown role: r-view' },
      },
    });
    const user = userEvent.setup();
    renderAt(<ApiKeyEditPage />, newKey);
    await user.type(await screen.findByLabelText(/^Name/), 'ERP');
    await pick(user, /Roles/, 'Viewer');
    await pick(user, /Sites/, 'North Yard');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bad Request: Unknown role: r-view')).toBeInTheDocument();
  });

  it('shows an existing key read-only; delete asks to Confirm Delete', async () => {
    const { calls } = api({ 'DELETE /api/apikeys/k1': { status: 204 } });
    const user = userEvent.setup();
    renderAt(<ApiKeyEditPage />, { path: '/apikeys/:id', route: '/apikeys/k1' });
    expect(await screen.findByRole('heading', { name: /Gate reader/ })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Token/)).toHaveValue('tt_AbCdEfGh…');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Delete' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this API key? This action cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: "I'm Sure" }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
  });

  it('offers Delete only with the modify right', async () => {
    const { calls } = api({}, { create: true, modify: false, delete: true });
    renderAt(<ApiKeyEditPage />, { path: '/apikeys/:id', route: '/apikeys/k1' });
    expect(await screen.findByRole('heading', { name: /Gate reader/ })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url.includes('/api/accessRules'))).toBe(true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
