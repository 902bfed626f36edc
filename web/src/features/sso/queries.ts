import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { SsoAvailability, SsoKind, SsoSettingsWrite } from '../../api/types';

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

const UNAVAILABLE: SsoAvailability = { available: false, enabled: false };

/**
 * Whether an SSO kind is offered on the login page (`available`: enabled and configured) or
 * enabled for the organization (`enabled`: its settings may be edited); a failure means neither.
 */
export function useSsoAvailable(kind: SsoKind, enabled = true) {
  return useQuery({
    queryKey: ['sso', kind],
    queryFn: async (): Promise<SsoAvailability> => {
      try {
        const res = await unwrap(
          api.GET('/api/auth/{kind}/available', { params: { path: { kind } } }),
        );
        return { available: res.available, enabled: res.enabled };
      } catch {
        return UNAVAILABLE;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
    enabled,
  });
}

/** The server's redirect to the provider; it returns to `referer` after signing in. */
export function ssoRedirectUrl(kind: SsoKind, referer?: string | null): string {
  const query = referer ? `?${new URLSearchParams({ referer }).toString()}` : '';
  return `/api/auth/${kind}/redirect${query}`;
}
