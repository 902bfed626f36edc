import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { EndpointWrite } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

const endpointKeys = {
  all: ['endpoints'] as const,
  list: (site: string | undefined, q: ListQuery): readonly unknown[] => [
    'endpoints',
    'list',
    site,
    q,
  ],
  one: (id: string) => ['endpoints', 'one', id] as const,
  status: (id: string, page: number, limit: number) =>
    ['endpoints', 'status', id, page, limit] as const,
  sources: (site: string) => ['endpoints', 'sources', site] as const,
};

/** One page of the site's endpoints for the generic list. */
export const endpointsListQuery = (site: string | undefined) => (q: ListQuery) =>
  queryOptions({
    queryKey: endpointKeys.list(site, q),
    queryFn: () =>
      unwrapPage(api.GET('/api/endpoints', { params: { query: { ...listQueryParams(q), site } } })),
    enabled: site !== undefined,
  });

export function useEndpoint(id: string) {
  return useQuery({
    queryKey: endpointKeys.one(id),
    queryFn: () =>
      unwrap(api.GET('/api/endpoints/{endpoint_id}', { params: { path: { endpoint_id: id } } })),
    enabled: id !== 'new',
  });
}

/** The endpoint's heartbeats, latest first, one page at a time. */
export function useEndpointStatusHistory(id: string, page: number, limit: number) {
  return useQuery({
    queryKey: endpointKeys.status(id, page, limit),
    queryFn: () =>
      unwrapPage(
        api.GET('/api/endpoints/status/{endpoint_id}', {
          params: { path: { endpoint_id: id }, query: { page, limit } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
}

/** The site's endpoints by name (id and name only), e.g. for a zone's gates. */
export function useEventSources(site: string) {
  return useQuery({
    queryKey: endpointKeys.sources(site),
    queryFn: () => unwrap(api.GET('/api/eventsources', { params: { query: { site } } })),
    enabled: site !== '',
    staleTime: 60_000,
  });
}

export function useSaveEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: EndpointWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/endpoints', { body }))
        : unwrap(
            api.PUT('/api/endpoints/{endpoint_id}', {
              params: { path: { endpoint_id: id } },
              body,
            }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: endpointKeys.all }),
  });
}

export function useDeleteEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/endpoints/{endpoint_id}', { params: { path: { endpoint_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: endpointKeys.all }),
  });
}
