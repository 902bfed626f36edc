import type { QueryClient } from '@tanstack/react-query';
import { lastDays, type DateRangeValue } from '../../components/format';
import { DEFAULT_PAGE_SIZE } from '../../constants';
import { eventsPageQuery, type EventFilter } from './queries';

/** The page's first filter: the site, today, every endpoint. */
export function firstFilter(site: string | undefined, range: DateRangeValue): EventFilter {
  return { site, after: range.start.toISOString(), before: range.end.toISOString(), endpoints: [] };
}

/**
 * Asks for the first page of today's events when the URL names the site. The router loads
 * this small chunk as soon as the entry runs, so the events arrive while the shell's and the
 * page's code are still on their way.
 */
export function prefetchFirstPage(client: QueryClient, url: URL) {
  const site = url.searchParams.get('site');
  if (!site) return;
  void client
    .query(eventsPageQuery(firstFilter(site, lastDays(1)), 0, DEFAULT_PAGE_SIZE))
    .catch(() => undefined);
}
