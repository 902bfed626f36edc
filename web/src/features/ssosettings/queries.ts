import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { SsoSettingsWrite } from '../../api/types';

const ssoSettingsKeys = {
  one: ['ssosettings'] as const,
};

export function useSsoSettings() {
  return useQuery({
    queryKey: ssoSettingsKeys.one,
    queryFn: () => unwrap(api.GET('/api/ssosettings')),
  });
}

export function useSaveSsoSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoSettingsWrite) => unwrap(api.PUT('/api/ssosettings', { body })),
    onSuccess: (saved) => {
      client.setQueryData(ssoSettingsKeys.one, saved);
      // The login page's offer follows the settings.
      void client.invalidateQueries({ queryKey: ['sso'] });
    },
  });
}
