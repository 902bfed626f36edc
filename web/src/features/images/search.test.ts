import { describe, expect, it } from 'vitest';
import { EMPTY_SEARCH, isSearchActive, searchFromParams, toQuery, withImageSearch } from './search';

describe('image search in the URL', () => {
  it('round-trips every field and keeps other params', () => {
    const search = {
      tags: ['dock', 'bay 4'],
      categories: ['a'.repeat(24)],
      tagsEmpty: true,
      categoriesEmpty: true,
      uploader: 'b'.repeat(24),
      search: 'forklift',
      partial: true,
      dateStart: '2024-01-01T00:00:00.000Z',
      dateEnd: '2024-01-31T23:59:59.999Z',
      or: true,
    };
    const params = withImageSearch(new URLSearchParams('site=s1&tags=old'), search);
    expect(params.get('site')).toBe('s1');
    expect(params.getAll('tags')).toEqual(['dock', 'bay 4']);
    expect(searchFromParams(params)).toEqual(search);
    expect(toQuery(search)).toMatchObject({ tags: ['dock', 'bay 4'], or: true, partial: true });
  });

  it('leaves the URL clean for the empty search', () => {
    const params = withImageSearch(new URLSearchParams('site=s1'), EMPTY_SEARCH);
    expect(params.toString()).toBe('site=s1');
    expect(searchFromParams(params)).toEqual(EMPTY_SEARCH);
    expect(isSearchActive(EMPTY_SEARCH)).toBe(false);
    expect(isSearchActive({ ...EMPTY_SEARCH, or: true })).toBe(false);
    expect(isSearchActive({ ...EMPTY_SEARCH, tagsEmpty: true })).toBe(true);
    expect(toQuery(EMPTY_SEARCH)).toEqual({});
  });
});
