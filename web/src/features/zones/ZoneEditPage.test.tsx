import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminRules, mockApi, renderAt, findCall } from '../../test/utils';
import ZoneEditPage from './ZoneEditPage';

const me = {
  id: 'me1',
  name: 'Ada',
  username: 'ada@example.com',
  roles: ['r-admin'],
  securityCtx: { sites: ['s1'], companies: [] },
  superAdmin: false,
  orgId: 'o1',
};

const zone = {
  _id: 'z1',
  name: 'Dock',
  description: '',
  site: 's1',
  duration: 15 * 6e10,
  emails: [],
  killDuration: 2,
  immediateKill: false,
  killMode: 'zone',
  gates: [{ endpoint: 'e1', direction: 'IN', antenna: -1 }],
  items: 0,
  workers: 0,
};

function api(rules = adminRules(['zones']), extra = {}) {
  return mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/accessRules': { body: rules },
    'GET /api/sites': { body: [{ _id: 's1', name: 'North Yard' }] },
    'GET /api/zones/z1': { body: zone },
    'GET /api/eventsources': {
      body: [
        { _id: 'e1', name: 'Dock Door 1' },
        { _id: 'e2', name: 'Dock Door 2' },
      ],
    },
    'GET /api/killmodes': {
      body: [
        { id: 'zone', name: 'Leave the zone' },
        { id: 'site', name: 'Leave the site' },
      ],
    },
    ...extra,
  });
}

describe('zone edit', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('needs an endpoint on each gate and saves the alert time in nanoseconds', async () => {
    const { calls } = api(undefined, { 'PUT /api/zones/z1': { body: zone } });
    const user = userEvent.setup();
    renderAt(<ZoneEditPage />, { path: '/zones/:id', route: '/zones/z1' });
    expect(await screen.findByRole('heading', { name: 'Dock' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Alert Time/)).toHaveValue(15);

    await user.click(screen.getByRole('tab', { name: 'Gates' }));
    await user.click(screen.getByRole('button', { name: 'Add Gate' }));
    await user.click(screen.getByRole('tab', { name: 'Basic' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Gates in the Gates tab: Please select an value'),
    ).toBeInTheDocument();
    const gate2 = screen.getByRole('group', { name: 'Gate 2' });
    expect(within(gate2).getByText('Please select an value')).toBeInTheDocument();
    // Only the row at fault is marked; no second copy under the table.
    expect(screen.getAllByText('Please select an value')).toHaveLength(1);
    expect(screen.getByRole('tab', { name: 'Gates' })).toHaveAttribute('aria-selected', 'true');

    await user.click(within(gate2).getByRole('combobox', { name: /Endpoint/ }));
    await user.click(await screen.findByRole('option', { name: 'Dock Door 2' }));
    await user.click(within(gate2).getByRole('combobox', { name: 'Direction' }));
    await user.click(await screen.findByRole('option', { name: 'OUT' }));
    await user.click(within(gate2).getByRole('combobox', { name: 'Antenna' }));
    await user.click(await screen.findByRole('option', { name: '3' }));
    await user.click(screen.getByRole('tab', { name: 'Basic' }));
    await user.clear(screen.getByLabelText(/Alert Time/));
    await user.type(screen.getByLabelText(/Alert Time/), '2.5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved zone')).toBeInTheDocument();
    const put = findCall(calls, (c) => c.method === 'PUT');
    expect(await put.json()).toMatchObject({
      duration: 150_000_000_000,
      killDuration: 2,
      gates: [
        { endpoint: 'e1', direction: 'IN', antenna: -1 },
        { endpoint: 'e2', direction: 'OUT', antenna: 3 },
      ],
    });
  });

  it('rejects a bad email', async () => {
    api();
    const user = userEvent.setup();
    renderAt(<ZoneEditPage />, { path: '/zones/:id', route: '/zones/z1' });
    const emails = await screen.findByRole('combobox', { name: 'Emails' });
    await user.click(emails);
    await user.keyboard('not-an-email');
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        "Emails in the Basic tab: 'not-an-email' is not a valid email address",
      ),
    ).toBeInTheDocument();
  });

  it('shows neither Save nor Delete without rights, and no Delete for a new zone', async () => {
    api(adminRules(['zones'], { create: false, modify: false, delete: false }));
    renderAt(<ZoneEditPage />, { path: '/zones/:id', route: '/zones/z1' });
    expect(await screen.findByRole('heading', { name: 'Dock' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Save' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    vi.unstubAllGlobals();

    api();
    renderAt(<ZoneEditPage />, { path: '/zones/:id', route: '/zones/new' });
    expect(await screen.findAllByRole('heading', { name: 'Add Zone' })).not.toHaveLength(0);
    expect(screen.queryAllByRole('button', { name: 'Delete' })).toHaveLength(0);
  });
});
