import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Thing } from '../../api/types';
import { adminRules, mockApi, renderAt, type MockHandler } from '../../test/utils';
import { ThingPhotos } from './photoTab';

const me = {
  id: 'me1',
  name: 'Ada',
  username: 'ada@example.com',
  roles: ['r-admin'],
  securityCtx: { sites: ['s1'], companies: [] },
  superAdmin: false,
  orgId: 'o1',
};

const P1 = 'a'.repeat(24);
const P2 = 'b'.repeat(24);

function thingWith(photo: string[]): Thing {
  return {
    _id: 't1',
    site: 's1',
    common: { name: 'Cage Trolley', class: 'item', photo },
    state: {},
    data: {},
  } as unknown as Thing;
}

function api(rules: unknown[], extra: Record<string, MockHandler> = {}) {
  return mockApi({
    'GET /api/users/me': { body: me },
    'GET /api/accessRules': { body: rules },
    'GET /api/sites': { body: [{ _id: 's1', name: 'North Yard' }] },
    ...extra,
  });
}

const jpeg = () =>
  new File([new Uint8Array([0xff, 0xd8, 0xff])], 'crate.jpg', { type: 'image/jpeg' });

describe('thing Photo tab', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the thumbnails, each opening its image', async () => {
    api(adminRules(['images']));
    renderAt(<ThingPhotos thing={thingWith([P1, P2])} noun="item" />);
    expect(await screen.findByRole('button', { name: 'Attach photos' })).toBeInTheDocument();
    const tiles = screen.getAllByTestId('thing-photo');
    expect(tiles).toHaveLength(2);
    expect(within(tiles[0]).getByRole('img')).toHaveAttribute(
      'src',
      expect.stringContaining(`/api/images/${P1}/thumb`),
    );
    expect(within(tiles[1]).getByRole('link', { name: 'Open photo' })).toHaveAttribute(
      'href',
      expect.stringContaining(`/images/${P2}`),
    );
    expect(screen.getAllByRole('button', { name: 'Remove photo' })).toHaveLength(2);
    expect(screen.getByText('2 photos')).toBeInTheDocument();
  });

  it('has an empty state, and no attach or remove without modify on images', async () => {
    const { fetchMock } = api(
      adminRules(['images'], { create: true, modify: false, delete: true }),
    );
    renderAt(<ThingPhotos thing={thingWith([])} noun="item" />);
    expect(await screen.findByText('No photos of this item yet.')).toBeInTheDocument();
    // Once the rights have arrived, still no attach button.
    await waitFor(() => expect(fetchMock.mock.results.length).toBeGreaterThanOrEqual(2));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Attach photos' })).not.toBeInTheDocument();
    expect(screen.queryByText(/photos$/)).not.toBeInTheDocument();
  });

  it('deletes a photo after confirming, and says so when that fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let fail = true;
    const { calls } = api(adminRules(['images']), {
      [`DELETE /api/images/${P1}`]: () =>
        fail ? { status: 500, body: { detail: 'boom' } } : { body: { count: 1 } },
      'GET /api/things/t1': { body: thingWith([]) },
    });
    const user = userEvent.setup();
    renderAt(<ThingPhotos thing={thingWith([P1])} noun="item" />);
    await user.click(await screen.findByRole('button', { name: 'Remove photo' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Photo' });
    await user.click(within(dialog).getByRole('button', { name: "I'm Sure" }));
    expect(await screen.findByText(/^Failed to delete image: /)).toBeInTheDocument();

    fail = false;
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Remove photo' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Remove Photo' })).getByRole('button', {
        name: "I'm Sure",
      }),
    );
    expect(await screen.findByText('Photo removed')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(2);
  });

  it("says 'Failed to get categories' when the categories cannot be listed", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api(adminRules(['images']), {
      'GET /api/categories': { status: 500, body: { detail: 'boom' } },
    });
    const user = userEvent.setup();
    renderAt(<ThingPhotos thing={thingWith([])} noun="item" />);
    await screen.findByRole('button', { name: 'Attach photos' });
    await user.upload(screen.getByTestId('photo-input'), jpeg());
    expect(await screen.findByText(/^Failed to get categories: /)).toBeInTheDocument();
  });

  it("creates a missing Things category, and says 'Failed to create category' on failure", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { calls } = api(adminRules(['images']), {
      'GET /api/categories': { body: [{ id: 'c1', name: 'Damage' }] },
      'POST /api/image-categories': { status: 403, body: { detail: 'Forbidden' } },
    });
    const user = userEvent.setup();
    renderAt(<ThingPhotos thing={thingWith([])} noun="item" />);
    await screen.findByRole('button', { name: 'Attach photos' });
    await user.upload(screen.getByTestId('photo-input'), jpeg());
    expect(await screen.findByText(/^Failed to create category: /)).toBeInTheDocument();
    const created = calls.find((c) => c.method === 'POST');
    expect(await created?.json()).toMatchObject({ name: 'Things' });
  });
});
