import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

const homeKeys = {
  zones: (site: string | undefined) => ['zones', 'overview', site] as const,
  endpoints: (site: string | undefined) => ['endpoints', 'dashboard', site] as const,
  statuses: (site: string | undefined) => ['endpoints', 'status', 'latest', site] as const,
};

/** The site's zones with their item and worker counts (zones limit 3000, spec section 9). */
export function useZoneOverview(site: string | undefined) {
  return useQuery({
    queryKey: homeKeys.zones(site),
    queryFn: () =>
      unwrap(api.GET('/api/zones', { params: { query: { site, limit: 3000, sort: 'name' } } })),
    enabled: !!site,
  });
}

export function useSiteEndpoints(site: string | undefined) {
  return useQuery({
    queryKey: homeKeys.endpoints(site),
    queryFn: () => unwrap(api.GET('/api/endpoints', { params: { query: { site, limit: 10000 } } })),
    enabled: !!site,
  });
}

/** The latest heartbeat of every endpoint of the site. */
export function useLatestStatuses(site: string | undefined) {
  return useQuery({
    queryKey: homeKeys.statuses(site),
    queryFn: () => unwrap(api.GET('/api/endpoints/status', { params: { query: { site } } })),
    enabled: !!site,
  });
}
