import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { MeUpdate } from '../../api/types';

export function useSaveMe() {
  return useMutation({
    mutationFn: (body: MeUpdate) => unwrap(api.PUT('/api/users/me', { body })),
  });
}
