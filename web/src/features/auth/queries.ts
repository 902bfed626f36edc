import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { SsoAvailability, SsoKind } from '../../api/types';
import { sessionKeys } from '../session/queries';

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; password: string }) =>
      unwrap(api.POST('/api/auth/login', { body })),
    onSuccess: (user) => {
      // Nothing cached for a previous user may leak into this session.
      client.clear();
      client.setQueryData(sessionKeys.me, user);
    },
  });
}

function useLogout() {
  return useMutation({
    mutationFn: () => unwrap(api.POST('/api/auth/logout')),
  });
}

/** Ends the session on the server, then goes to login whatever the outcome. */
export function useSignOut(): () => void {
  const logout = useLogout();
  const navigate = useNavigate();
  const client = useQueryClient();
  return () =>
    logout.mutate(undefined, {
      onSettled: () => {
        // Leave the signed-in screens first so nothing refetches the cleared data.
        void navigate('/login');
        client.clear();
      },
    });
}

const UNAVAILABLE: SsoAvailability = { available: false, enabled: false };

/**
 * Whether an SSO kind is offered on the login page (`available`: enabled and configured) or
 * enabled for the organisation (`enabled`: its settings may be edited); a failure means neither.
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

export function usePasswordResetRequest() {
  return useMutation({
    mutationFn: (email: string) =>
      unwrap(api.POST('/api/auth/passwordresetrequest', { params: { query: { email } } })),
  });
}

export function usePasswordReset() {
  return useMutation({
    mutationFn: (body: { password: string; token: string }) =>
      unwrap(api.POST('/api/auth/passwordreset', { body })),
  });
}
