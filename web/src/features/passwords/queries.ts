import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';

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
