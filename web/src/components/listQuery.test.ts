import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIST_QUERY,
  isDefaultListQuery,
  listQueryFromParams,
  listQueryParams,
  nextSearch,
  sameListQuery,
  withListQuery,
} from './listQuery';

describe('list query in the URL', () => {
  it('reads defaults from an empty URL', () => {
    expect(listQueryFromParams(new URLSearchParams())).toEqual(DEFAULT_LIST_QUERY);
  });

  it('reads page, limit, sort and search', () => {
    const q = listQueryFromParams(new URLSearchParams('page=2&limit=100&sort=-name&search=dock'));
    expect(q).toEqual({ page: 2, limit: 100, sort: '-name', search: 'dock' });
  });

  it('falls back to the defaults for invalid values', () => {
    const q = listQueryFromParams(new URLSearchParams('page=-3&limit=33'));
    expect(q.page).toBe(0);
    expect(q.limit).toBe(25);
  });

  it('writes nothing for page 0, limit 25 and no sort', () => {
    const next = withListQuery(new URLSearchParams('site=abc&page=3&limit=10'), {
      page: 0,
      limit: 25,
      sort: '',
    });
    expect(next.toString()).toBe('site=abc');
  });

  it('writes the query when any part differs from the default', () => {
    expect(withListQuery(new URLSearchParams(), { page: 1, limit: 25, sort: '' }).toString()).toBe(
      'page=1&limit=25',
    );
    expect(withListQuery(new URLSearchParams(), { page: 0, limit: 10, sort: '' }).toString()).toBe(
      'page=0&limit=10',
    );
    expect(
      withListQuery(new URLSearchParams('site=s1'), {
        page: 0,
        limit: 25,
        sort: 'name',
      }).toString(),
    ).toBe('site=s1&page=0&limit=25&sort=name');
  });

  it('tells the default and identical queries apart', () => {
    expect(isDefaultListQuery(DEFAULT_LIST_QUERY)).toBe(true);
    expect(isDefaultListQuery({ ...DEFAULT_LIST_QUERY, sort: '-name' })).toBe(false);
    expect(sameListQuery(DEFAULT_LIST_QUERY, { ...DEFAULT_LIST_QUERY })).toBe(true);
    expect(sameListQuery(DEFAULT_LIST_QUERY, { ...DEFAULT_LIST_QUERY, search: 'x' })).toBe(false);
  });

  it('leaves the default sort and an empty search out of the call', () => {
    expect(listQueryParams(DEFAULT_LIST_QUERY)).toEqual({ limit: 25, page: 0 });
    expect(listQueryParams({ page: 1, limit: 10, sort: '-name', search: 'abc' })).toEqual({
      limit: 10,
      page: 1,
      sort: '-name',
      search: 'abc',
    });
  });
});

describe('top-bar search', () => {
  it('ignores 1 or 2 characters, keeping the current search', () => {
    expect(nextSearch('a', '', 3)).toBe('');
    expect(nextSearch('ab', 'dock', 3)).toBe('dock');
  });

  it('applies 3 characters or more and clears on empty', () => {
    expect(nextSearch('doc', '', 3)).toBe('doc');
    expect(nextSearch('  dock  ', '', 3)).toBe('dock');
    expect(nextSearch('', 'dock', 3)).toBe('');
    expect(nextSearch('   ', 'dock', 3)).toBe('');
  });
});
