import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { SiteWrite } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

const siteKeys = {
  all: ['sites'] as const,
  list: (q: ListQuery): readonly unknown[] => ['sites', 'list', q],
  options: ['sites', 'options'] as const,
  one: (id: string) => ['sites', 'one', id] as const,
  timezones: ['timezones'] as const,
};

/** The sites page of the generic list. */
export const sitesListQuery = (q: ListQuery) =>
  queryOptions({
    queryKey: siteKeys.list(q),
    queryFn: () => unwrapPage(api.GET('/api/sites', { params: { query: listQueryParams(q) } })),
  });

/** Every site in the user's scope, by name, for the site selector. */
export const siteOptionsQuery = queryOptions({
  queryKey: siteKeys.options,
  queryFn: () =>
    unwrap(api.GET('/api/sites', { params: { query: { limit: 10000, sort: 'name' } } })),
  staleTime: 60_000,
});

export function useSiteOptions(enabled = true) {
  return useQuery({ ...siteOptionsQuery, enabled });
}

export function useSite(id: string) {
  return useQuery({
    queryKey: siteKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/sites/{site_id}', { params: { path: { site_id: id } } })),
    enabled: id !== 'new',
  });
}

export function useTimezones() {
  return useQuery({
    queryKey: siteKeys.timezones,
    queryFn: () => unwrap(api.GET('/api/timezones')),
    staleTime: Infinity,
  });
}

export function useSaveSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: SiteWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/sites', { body }))
        : unwrap(api.PUT('/api/sites/{site_id}', { params: { path: { site_id: id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}

export function useDeleteSite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/sites/{site_id}', { params: { path: { site_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all }),
  });
}
