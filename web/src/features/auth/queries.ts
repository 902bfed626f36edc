import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { sessionKeys } from '../access/queries';

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
