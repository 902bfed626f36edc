/** The list query of GenericList and its URL form (spec sections 4 and 9). */
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../constants';

export interface ListQuery {
  page: number;
  limit: number;
  /** A field name, '-' prefixed when descending; '' for the server's default order. */
  sort: string;
  search: string;
}

export const DEFAULT_LIST_QUERY: ListQuery = {
  page: 0,
  limit: DEFAULT_PAGE_SIZE,
  sort: '',
  search: '',
};

const LIST_PARAMS = ['page', 'limit', 'sort'] as const;

function toInt(value: string | null, fallback: number): number {
  if (value === null) return fallback;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Reads the list query from the URL; anything missing or invalid is the default. */
export function listQueryFromParams(params: URLSearchParams): ListQuery {
  const limit = toInt(params.get('limit'), DEFAULT_PAGE_SIZE);
  return {
    page: toInt(params.get('page'), 0),
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? limit : DEFAULT_PAGE_SIZE,
    sort: params.get('sort') ?? '',
    search: params.get('search') ?? '',
  };
}

export function isDefaultListQuery(q: Pick<ListQuery, 'page' | 'limit' | 'sort'>): boolean {
  return q.page === 0 && q.limit === DEFAULT_PAGE_SIZE && q.sort === '';
}

/**
 * Writes page, limit and sort into a copy of the URL params, but only when the query is not
 * the default one (page 0, limit 25, no sort); the default leaves the URL clean.
 */
export function withListQuery(
  params: URLSearchParams,
  q: Pick<ListQuery, 'page' | 'limit' | 'sort'>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of LIST_PARAMS) next.delete(key);
  if (!isDefaultListQuery(q)) {
    next.set('page', String(q.page));
    next.set('limit', String(q.limit));
    if (q.sort) next.set('sort', q.sort);
  }
  return next;
}

export function sameListQuery(a: ListQuery, b: ListQuery): boolean {
  return a.page === b.page && a.limit === b.limit && a.sort === b.sort && a.search === b.search;
}

/** The call's query parameters: the default sort is left to the server. */
export function listQueryParams(q: ListQuery): {
  limit: number;
  page: number;
  sort?: string;
  search?: string;
} {
  return {
    limit: q.limit,
    page: q.page,
    ...(q.sort ? { sort: q.sort } : {}),
    ...(q.search ? { search: q.search } : {}),
  };
}

/** The top-bar search: blank clears, 1 or 2 characters are ignored (the last search stays). */
export function nextSearch(text: string, current: string, minChars: number): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  if (trimmed.length < minChars) return current;
  return trimmed;
}
