/** The image search query and its URL form: the URL mirrors the search (spec section 2). */
import dayjs, { type Dayjs } from 'dayjs';
import type { ImageSearchParams } from '../../api/types';
import type { QuickRange } from '../../components/DateRange';
import { lastDays } from '../../components/format';

export interface ImageSearch {
  tags: string[];
  categories: string[];
  tagsEmpty: boolean;
  categoriesEmpty: boolean;
  uploader: string;
  search: string;
  partial: boolean;
  /** ISO times, '' when unset. */
  dateStart: string;
  dateEnd: string;
  or: boolean;
}

export const EMPTY_SEARCH: ImageSearch = {
  tags: [],
  categories: [],
  tagsEmpty: false,
  categoriesEmpty: false,
  uploader: '',
  search: '',
  partial: false,
  dateStart: '',
  dateEnd: '',
  or: false,
};

const FLAGS = ['tagsEmpty', 'categoriesEmpty', 'partial', 'or'] as const;
const TEXTS = ['uploader', 'search', 'dateStart', 'dateEnd'] as const;
const LISTS = ['tags', 'categories'] as const;
/** Every URL parameter the search owns; others (site) are left alone. */
const SEARCH_PARAMS: readonly string[] = [...FLAGS, ...TEXTS, ...LISTS];

/** Quick ranges of the image search: 7 days, 31 days (30 back) and the current month. */
export const IMAGE_QUICK_RANGES: readonly QuickRange[] = [
  { label: '7 Days', range: (now: Dayjs) => lastDays(7, now) },
  { label: '31 Days', range: (now: Dayjs) => lastDays(31, now) },
  {
    label: 'Current Month',
    range: (now: Dayjs) => ({ start: now.startOf('month'), end: now.endOf('month') }),
  },
];

export function searchFromParams(params: URLSearchParams): ImageSearch {
  const text = (name: string) => params.get(name) ?? '';
  const validDate = (name: string) => (dayjs(text(name)).isValid() ? text(name) : '');
  return {
    tags: params.getAll('tags').filter(Boolean),
    categories: params.getAll('categories').filter(Boolean),
    tagsEmpty: params.get('tagsEmpty') === 'true',
    categoriesEmpty: params.get('categoriesEmpty') === 'true',
    uploader: text('uploader'),
    search: text('search'),
    partial: params.get('partial') === 'true',
    dateStart: validDate('dateStart'),
    dateEnd: validDate('dateEnd'),
    or: params.get('or') === 'true',
  };
}

/** The URL params with this search written in (only what is set), other params kept. */
export function withImageSearch(params: URLSearchParams, search: ImageSearch): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of SEARCH_PARAMS) next.delete(name);
  for (const [name, value] of searchEntries(search)) next.append(name, value);
  return next;
}

function searchEntries(search: ImageSearch): [string, string][] {
  const out: [string, string][] = [];
  for (const name of LISTS) for (const v of search[name]) out.push([name, v]);
  for (const name of FLAGS) if (search[name]) out.push([name, 'true']);
  for (const name of TEXTS) if (search[name]) out.push([name, search[name]]);
  return out;
}

/** The search alone as URL params: for the exports of a search and for links. */
export function searchParams(search: ImageSearch): URLSearchParams {
  return new URLSearchParams(searchEntries(search));
}

/** Any field set: the Edit, Delete and Export buttons apply to the search. */
export function isSearchActive(search: ImageSearch): boolean {
  return searchEntries(search).some(([name]) => name !== 'partial' && name !== 'or');
}

/** The query GET images takes. */
export function toQuery(search: ImageSearch): ImageSearchParams {
  const query: ImageSearchParams = {};
  if (search.tags.length) query.tags = search.tags;
  if (search.categories.length) query.categories = search.categories;
  if (search.tagsEmpty) query.tagsEmpty = true;
  if (search.categoriesEmpty) query.categoriesEmpty = true;
  if (search.uploader) query.uploader = search.uploader;
  if (search.search) query.search = search.search;
  if (search.partial) query.partial = true;
  if (search.dateStart) query.dateStart = search.dateStart;
  if (search.dateEnd) query.dateEnd = search.dateEnd;
  if (search.or) query.or = true;
  return query;
}

/** How many fields are set, for the filter button's badge. */
export function activeFilterCount(search: ImageSearch): number {
  return (
    search.tags.length +
    search.categories.length +
    Number(search.tagsEmpty) +
    Number(search.categoriesEmpty) +
    Number(!!search.uploader) +
    Number(!!(search.dateStart || search.dateEnd))
  );
}

/** The URL parameter of the image edit page naming where Exit returns (a thing's Photo tab). */
export const RETURN_PARAM = 'from';

/** The in-app path to return to, if the URL names one (never another site's address). */
export function returnPathOf(params: URLSearchParams): string | null {
  const path = params.get(RETURN_PARAM) ?? '';
  return path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') ? path : null;
}
