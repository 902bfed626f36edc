import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../api/client';
import type { OrgSettings } from '../../api/types';
import { labelsFrom, type Labels } from './labels';

export const settingsKeys = {
  org: ['orgsettings'] as const,
};

export function useOrgSettings(enabled = true) {
  return useQuery({
    queryKey: settingsKeys.org,
    queryFn: () => unwrap(api.GET('/api/orgsettings')),
    staleTime: 5 * 60_000,
    enabled,
  });
}

/** Item and worker labels of the organisation; defaults until (or unless) settings load. */
export function useLabels(): Labels {
  const { data } = useOrgSettings();
  return useMemo(() => labelsFrom(data), [data]);
}

export function useSaveOrgSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OrgSettings) => unwrap(api.POST('/api/orgsettings', { body })),
    onSuccess: (saved) => client.setQueryData(settingsKeys.org, saved),
  });
}
