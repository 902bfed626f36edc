import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import { EVENTS_POLL_MS } from './eventLogic';

export interface EventFilter {
  site?: string;
  /** RFC 3339 bounds of the period. */
  after?: string;
  before?: string;
  endpoints?: readonly string[];
  thing?: string;
}

export const eventKeys = {
  all: ['events'] as const,
  page: (filter: EventFilter, page: number, limit: number): readonly unknown[] => [
    'events',
    'page',
    filter,
    page,
    limit,
  ],
  sources: (site: string | undefined) => ['eventsources', site] as const,
};

/**
 * One page of events, latest first. With poll, it refreshes every 5 s while the document is
 * visible (TanStack skips interval refetches while hidden) and stops when the page unmounts.
 */
export function useEventsPage(
  filter: EventFilter,
  page: number,
  limit: number,
  { poll = false, enabled = true }: { poll?: boolean; enabled?: boolean } = {},
) {
  return useQuery({
    ...eventsPageQuery(filter, page, limit),
    enabled,
    placeholderData: keepPreviousData,
    refetchInterval: poll ? EVENTS_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}

/** One page of events, latest first (also fetched ahead, see EventsPage's prefetch). */
export const eventsPageQuery = (filter: EventFilter, page: number, limit: number) =>
  queryOptions({
    queryKey: eventKeys.page(filter, page, limit),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/events', {
          params: {
            query: {
              limit,
              page,
              ...(filter.site ? { site: filter.site } : {}),
              ...(filter.after ? { after: filter.after } : {}),
              ...(filter.before ? { before: filter.before } : {}),
              ...(filter.thing ? { thing: filter.thing } : {}),
              ...(filter.endpoints?.length ? { endpoint: filter.endpoints.join(',') } : {}),
            },
          },
        }),
      ),
  });

/** The site's endpoints as filter choices. */
export function useEventSources(site: string | undefined) {
  return useQuery({
    queryKey: eventKeys.sources(site),
    queryFn: () => unwrap(api.GET('/api/eventsources', { params: { query: { site } } })),
    enabled: !!site,
    staleTime: 60_000,
  });
}
