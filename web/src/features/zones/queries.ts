import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { ZoneWrite } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

/** Zones of a site for lookups (spec section 9: zones lookup limit 1000). */
const ZONE_LOOKUP_LIMIT = 1000;

const zoneKeys = {
  all: ['zones'] as const,
  list: (site: string | undefined, q: ListQuery): readonly unknown[] => ['zones', 'list', site, q],
  options: (site: string) => ['zones', 'options', site] as const,
  one: (id: string) => ['zones', 'one', id] as const,
  killModes: ['killmodes'] as const,
};

export const zonesListQuery = (site: string | undefined) => (q: ListQuery) =>
  queryOptions({
    queryKey: zoneKeys.list(site, q),
    queryFn: () =>
      unwrapPage(api.GET('/api/zones', { params: { query: { ...listQueryParams(q), site } } })),
    enabled: site !== undefined,
  });

/** The site's zones by name, for selects and for naming zones in other lists. */
export function useZoneOptions(site: string | undefined) {
  return useQuery({
    queryKey: zoneKeys.options(site ?? ''),
    queryFn: () =>
      unwrap(
        api.GET('/api/zones', {
          params: { query: { site, limit: ZONE_LOOKUP_LIMIT, sort: 'name' } },
        }),
      ),
    enabled: !!site,
    staleTime: 60_000,
  });
}

export function useZone(id: string) {
  return useQuery({
    queryKey: zoneKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/zones/{zone_id}', { params: { path: { zone_id: id } } })),
    enabled: id !== 'new',
  });
}

export function useKillModes() {
  return useQuery({
    queryKey: zoneKeys.killModes,
    queryFn: () => unwrap(api.GET('/api/killmodes')),
    staleTime: Infinity,
  });
}

export function useSaveZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ZoneWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/zones', { body }))
        : unwrap(api.PUT('/api/zones/{zone_id}', { params: { path: { zone_id: id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: zoneKeys.all }),
  });
}

export function useDeleteZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/zones/{zone_id}', { params: { path: { zone_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: zoneKeys.all }),
  });
}
