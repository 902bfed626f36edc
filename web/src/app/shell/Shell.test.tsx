import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALL_SITES_ID } from '../../constants';
import {
  adminRules,
  currentUser,
  LocationProbe,
  mockApi,
  testQueryClient,
  type MockHandler,
} from '../../test/utils';
import { AppProviders } from '../providers';
import { routes } from '../router';

const sites = [
  { _id: 's1', name: 'North Yard' },
  { _id: 's2', name: 'South Dock' },
];

function setup({
  rules = adminRules(['sites', 'users']),
  superAdmin = false,
  userSites = ['s1', 's2'],
  route = '/',
  siteRows = sites,
  me = { body: currentUser(userSites, superAdmin) },
}: {
  siteRows?: typeof sites;
  me?: MockHandler;
  rules?: ReturnType<typeof adminRules>;
  superAdmin?: boolean;
  userSites?: string[];
  route?: string;
} = {}) {
  const api = mockApi({
    'GET /api/users/me': me,
    'GET /api/accessRules': { body: rules },
    'GET /api/sites': { body: siteRows, headers: { 'x-total-count': String(siteRows.length) } },
    'GET /api/orgsettings': {
      body: {
        itemLabel: 'Assets',
        workerLabel: '',
        itemNameLabel: '',
        itemSerialLabel: '',
        hideWorkers: false,
      },
    },
    'GET /api/version': { body: { version: '1.31.2' } },
    'POST /api/auth/logout': { status: 204 },
  });
  const router = createMemoryRouter(
    [
      ...routes.slice(0, -1),
      { path: '/login', element: <LocationProbe /> },
      routes[routes.length - 1],
    ],
    { initialEntries: [route] },
  );
  // The login route above shadows the real one so the test can see where logout lands.
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...api };
}

const drawer = () => screen.getByTestId('drawer');

beforeAll(async () => {
  // Load the lazy chunks once so the first test does not pay for it.
  await Promise.all([
    import('./Layout'),
    import('../../features/home/HomePage'),
    import('../../components/DataGridChunk'),
    import('../../components/BarChartChunk'),
  ]);
});

describe('shell', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('goes from the root to home with the first site selected', async () => {
    const { router } = setup();
    expect(
      await screen.findByRole('heading', { name: 'Home' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?site=s1'));
    expect(router.state.location.pathname).toBe('/home');
    expect(within(drawer()).getByText('Version 1.31.2')).toBeInTheDocument();
    expect(screen.getByText('Zone Overview')).toBeInTheDocument();
    expect(screen.getByText('Endpoint Status')).toBeInTheDocument();
  });

  it('shows menu entries by right, with the renamed item label', async () => {
    setup({
      rules: [
        { resource: 'sites', create: false, modify: true, delete: false },
        { resource: 'users', create: false, modify: true, delete: false },
      ],
    });
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(await within(nav).findByRole('link', { name: 'Assets' })).toBeInTheDocument();
    expect(await within(nav).findByRole('link', { name: 'Sites' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Organizations' })).not.toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Workers' })).toBeInTheDocument();
  });

  it('keeps the site in menu links', async () => {
    setup({ route: '/home?site=s2' });
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    await waitFor(() =>
      expect(within(nav).getByRole('link', { name: 'Sites' })).toHaveAttribute(
        'href',
        '/sites?site=s2',
      ),
    );
  });

  it('restores the last chosen site for a link without one', async () => {
    window.sessionStorage.setItem('tagtrack.site', 's2');
    const { router } = setup({ route: '/home' });
    await screen.findByRole('heading', { name: 'Home' });
    await waitFor(() => expect(router.state.location.search).toBe('?site=s2'));
  });

  it('falls back to the first site for an unknown site', async () => {
    const { router } = setup({ route: '/home?site=nope' });
    await screen.findByRole('heading', { name: 'Home' });
    await waitFor(() => expect(router.state.location.search).toBe('?site=s1'));
  });

  it('offers All Sites first to super admins and switches site', async () => {
    const user = userEvent.setup();
    const { router } = setup({ superAdmin: true });
    await screen.findByRole('heading', { name: 'Home' });
    await waitFor(() => expect(router.state.location.search).toBe(`?site=${ALL_SITES_ID}`));
    await user.click(within(drawer()).getByRole('combobox'));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['All Sites', 'North Yard', 'South Dock']);
    await user.click(screen.getByRole('option', { name: 'South Dock' }));
    await waitFor(() => expect(router.state.location.search).toBe('?site=s2'));
  });

  it('shows the only site as text, not a dropdown', async () => {
    setup({ userSites: ['s1'], siteRows: [sites[0]] });
    expect(await screen.findByTestId('site-name')).toHaveTextContent('North Yard');
    expect(within(drawer()).queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('debounces the search and ignores 1 or 2 characters', async () => {
    const user = userEvent.setup();
    const { router } = setup({ route: '/home?site=s1' });
    const search = await screen.findByRole('textbox', { name: 'Search' });
    await user.type(search, 'ab');
    await new Promise((r) => setTimeout(r, 450));
    expect(router.state.location.search).toBe('?site=s1');
    await user.type(search, 'c');
    await waitFor(() => expect(router.state.location.search).toBe('?site=s1&search=abc'));
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?site=s1'));
  });

  it('logs out through the account menu', async () => {
    const user = userEvent.setup();
    const { router, calls } = setup();
    await user.click(await screen.findByRole('button', { name: /^Account/ }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.some((c) => c.method === 'POST' && c.url.endsWith('/api/auth/logout'))).toBe(true);
  });

  it('says why the signed-in user failed to load, and loads it again on Retry', async () => {
    let answers = 0;
    setup({
      me: () =>
        answers++ === 0
          ? { status: 500, body: { reason: 'unavailable', message: 'The database is away' } }
          : { body: currentUser(['s1', 's2']) },
    });
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('Failed to load the current user: The database is away');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(
      await screen.findByRole('heading', { name: 'Home' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(answers).toBe(2);
  });

  it('redirects unknown paths to the root', async () => {
    const { router } = setup({ route: '/no/such/page' });
    // The home screen is a lazy chunk: a busy machine may take more than a second to load it.
    await screen.findByRole('heading', { name: 'Home' }, { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/home');
  });
});
