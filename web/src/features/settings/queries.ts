import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import type { SiteSettings } from '../../api/types';
import { ALL_SITES_ID } from '../../constants';
import { useSiteSelection } from '../access/SiteContext';
import { labelsFrom, mergeLabels, type Labels } from './labels';

export const settingsKeys = {
  org: ['orgsettings'] as const,
  site: (site: string | undefined) => ['sitesettings', site] as const,
};

export const orgSettingsQuery = queryOptions({
  queryKey: settingsKeys.org,
  queryFn: () => unwrap(api.GET('/api/orgsettings')),
  staleTime: 5 * 60_000,
});

export function useOrgSettings(enabled = true) {
  return useQuery({ ...orgSettingsQuery, enabled });
}

/** The settings of one real site (none for All Sites). */
export function useSiteSettings(site: string | undefined) {
  return useQuery({
    queryKey: settingsKeys.site(site),
    queryFn: () =>
      unwrap(
        api.GET('/api/sites/{site_id}/settings', { params: { path: { site_id: site ?? '' } } }),
      ),
    enabled: !!site && site !== ALL_SITES_ID,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Labels for a site's things: the site's settings over the organization's. */
export function useSiteLabels(site: string | undefined): Labels {
  const org = useOrgSettings();
  const siteSettings = useSiteSettings(site);
  return useMemo(
    () => mergeLabels(labelsFrom(org.data), siteSettings.data),
    [org.data, siteSettings.data],
  );
}

/** Labels of the selected site: menu, list titles, columns, forms and charts use them. */
export function useLabels(): Labels {
  const { siteId } = useSiteSelection();
  return useSiteLabels(siteId);
}

export function useSaveSiteSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ site, body }: { site: string; body: SiteSettings }) => {
      const path = { params: { path: { site_id: site } } };
      // The import screen saves header mappings into the same settings: keep the latest.
      const latest = await unwrap(api.GET('/api/sites/{site_id}/settings', path));
      const importSettings = {
        requireZone: false,
        generatePrefixTag: false,
        prefixedTagDupCheck: false,
        ...body.importSettings,
        importMappings: latest.importSettings?.importMappings ?? [],
      };
      return unwrap(
        api.PUT('/api/sites/{site_id}/settings', { ...path, body: { ...body, importSettings } }),
      );
    },
    // The whole console reads labels from this cache entry: they change at once.
    onSuccess: (saved, { site }) => client.setQueryData(settingsKeys.site(site), saved),
  });
}
