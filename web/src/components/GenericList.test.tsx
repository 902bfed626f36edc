import { queryOptions } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/utils';
import type { Page } from '../api/client';
import { GenericList, type ListColumn } from './GenericList';
import type { ListQuery } from './listQuery';

interface Row {
  id: string;
  name: string;
}

const columns: ListColumn<Row>[] = [{ field: 'name', headerName: 'Name' }];

function setup(rows: Row[], total: number, props: Record<string, unknown> = {}, route = '/things') {
  const fetchPage = vi.fn((_q: ListQuery): Promise<Page<Row>> => Promise.resolve({ rows, total }));
  const query = (q: ListQuery) =>
    queryOptions({ queryKey: ['things', q] as readonly unknown[], queryFn: () => fetchPage(q) });
  const utils = renderAt(
    <GenericList<Row>
      title="Things"
      name="thing"
      query={query}
      columns={columns}
      getRowId={(r) => r.id}
      rowPath={(r) => `/things/${r.id}`}
      addPath="/things/new"
      {...props}
    />,
    { path: '/things', route },
  );
  return { ...utils, fetchPage };
}

const rows = Array.from({ length: 25 }, (_, i) => ({ id: `t${i}`, name: `Thing ${i}` }));

// The grid is its own chunk: load it once so no test waits on it.
beforeAll(async () => {
  await import('./DataGridChunk');
});

describe('GenericList', () => {
  it('loads the default query and shows the total', async () => {
    const { fetchPage } = setup(rows, 60);
    expect(await screen.findByText('Thing 0')).toBeInTheDocument();
    expect(screen.getByText('60 total')).toBeInTheDocument();
    expect(fetchPage).toHaveBeenCalledWith({ page: 0, limit: 25, sort: '', search: '' });
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/things$/);
  });

  it('reads the query from the URL, including the top-bar search', async () => {
    const { fetchPage } = setup(rows, 60, {}, '/things?page=1&limit=10&sort=-name&search=box');
    await screen.findByText('Thing 0');
    expect(fetchPage).toHaveBeenCalledWith({ page: 1, limit: 10, sort: '-name', search: 'box' });
  });

  it('writes a non-default page to the URL and back to a clean URL', async () => {
    // The grid's fading loading overlay can leave pointer-events off for a moment on a busy
    // machine; the URL assertions below show the clicks took effect.
    const user = userEvent.setup({ pointerEventsCheck: 0 });
    const { fetchPage } = setup(rows, 60);
    await screen.findByText('Thing 0');
    await user.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/things?page=1&limit=25'),
    );
    await waitFor(() =>
      expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, limit: 25, sort: '', search: '' }),
    );
    // Paging stays disabled until the new page has arrived.
    const previous = () => screen.getByRole('button', { name: /previous page/i });
    await waitFor(() => expect(previous()).toBeEnabled(), { timeout: 5000 });
    await user.click(previous());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/things$/));
  });

  it('stays on its page when the URL changes elsewhere', async () => {
    const { router } = setup(rows, 60, {}, '/things?page=1&limit=25');
    await screen.findByText('Thing 0');
    // Another parameter (the site) re-renders the list with the same page and sort.
    await router.navigate('/things?page=1&limit=25&site=abc');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByTestId('location')).toHaveTextContent('/things?page=1&limit=25&site=abc');
    expect(screen.getByText('26–50 of 60')).toBeInTheDocument();
  });

  it('sorts through the URL and restarts at page 0', async () => {
    const user = userEvent.setup();
    setup(rows, 60, {}, '/things?page=2&limit=25');
    await screen.findByText('Thing 0');
    await user.click(screen.getByText('Name'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/things?page=0&limit=25&sort=name'),
    );
  });

  it('skips an identical repeated query', async () => {
    const { fetchPage, router } = setup(rows, 60);
    await screen.findByText('Thing 0');
    await router.navigate('/things');
    await router.navigate('/things?site=abc');
    await screen.findByText('Thing 0');
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('opens the detail route on a row click', async () => {
    const user = userEvent.setup();
    setup(rows, 60);
    await user.click(await screen.findByText('Thing 3'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/things/t3'));
  });

  it('shows Add only with the create right', async () => {
    setup(rows, 60, { canAdd: false });
    await screen.findByText('Thing 0');
    expect(screen.queryByRole('button', { name: 'Add' })).not.toBeInTheDocument();
  });

  it('shows Add with the create right', async () => {
    const user = userEvent.setup();
    setup(rows, 60, { canAdd: true });
    await user.click(await screen.findByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/things/new'));
  });

  it('shows the empty state', async () => {
    setup([], 0, { emptyMessage: 'No things found' });
    expect(await screen.findByText('No things found')).toBeInTheDocument();
  });

  it('deletes a row after confirmation', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn(() => Promise.resolve());
    setup(rows.slice(0, 2), 2, { canDelete: true, onDelete });
    await screen.findByText('Thing 1');
    const [first] = screen.getAllByRole('button', { name: 'Delete' });
    await user.click(first);
    const dialog = screen.getByRole('dialog');
    expect(
      within(dialog).getByText(
        'Are you sure you want to delete this thing? This action cannot be undone.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: "I'm Sure" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledWith(rows[0]));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/things$/);
  });
});
