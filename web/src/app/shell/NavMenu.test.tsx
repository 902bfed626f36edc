import type ListItemButtonType from '@mui/material/ListItemButton';
import { render, screen, within } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminRules, currentUser, mockApi, testQueryClient } from '../../test/utils';
import { AppProviders } from '../providers';
import { routes } from '../router';

// Where each menu button was drawn to, in order: a button drawn again shows up again.
const drawn = vi.hoisted(() => [] as string[]);

vi.mock('@mui/material/ListItemButton', async (importOriginal) => {
  const real = await importOriginal<{ default: typeof ListItemButtonType }>();
  const Real = real.default;
  function CountedListItemButton(props: ComponentProps<typeof Real> & { to?: string }) {
    drawn.push(props.to ?? '');
    return <Real {...props} />;
  }
  return { ...real, default: CountedListItemButton };
});

function setup(mapsAnswered: Promise<void>) {
  mockApi({
    'GET /api/users/me': { body: currentUser(['s1']) },
    'GET /api/accessRules': { body: adminRules(['sites']) },
    'GET /api/sites': {
      body: [{ _id: 's1', name: 'North Yard' }],
      headers: { 'x-total-count': '1' },
    },
    'GET /api/orgsettings': { body: { itemLabel: 'Assets', hideWorkers: false } },
    'GET /api/version': { body: { version: '1.31.2' } },
    'GET /api/maps': async () => {
      await mapsAnswered;
      return {
        body: [{ _id: 'm1', name: 'Ground Floor', site: 's1' }],
        headers: { 'x-total-count': '1' },
      };
    },
  });
  const router = createMemoryRouter(routes, { initialEntries: ['/userme?site=s1'] });
  render(
    <AppProviders client={testQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('navigation menu', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('draws only the new entries when a list of the menu arrives', async () => {
    let answerMaps = () => {};
    setup(new Promise<void>((resolve) => (answerMaps = resolve)));
    const nav = await screen.findByRole('navigation', { name: 'Main menu' }, { timeout: 5000 });
    await within(nav).findByRole('link', { name: 'Events' });
    await screen.findByText('Version 1.31.2');
    const eventsDrawn = () => drawn.filter((to) => to.startsWith('/events')).length;
    const before = eventsDrawn();
    expect(before).toBeGreaterThan(0);

    answerMaps();
    expect(await within(nav).findByRole('link', { name: 'Ground Floor' })).toHaveAttribute(
      'href',
      '/mapview/m1?site=s1',
    );
    expect(drawn.filter((to) => to.startsWith('/mapview/m1')).length).toBeGreaterThan(0);
    // The menu drew again with the maps, but the entries it already had did not.
    expect(eventsDrawn()).toBe(before);
  });
});
