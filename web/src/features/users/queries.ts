import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { MeUpdate, UserCreate, UserUpdate } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

const userKeys = {
  all: ['users'] as const,
  list: (q: ListQuery): readonly unknown[] => ['users', 'list', q],
  one: (id: string) => ['users', 'one', id] as const,
  roles: ['roles'] as const,
  usernames: ['usernames'] as const,
};

export const usersListQuery = (q: ListQuery) =>
  queryOptions({
    queryKey: userKeys.list(q),
    queryFn: () => unwrapPage(api.GET('/api/users', { params: { query: listQueryParams(q) } })),
  });

export function useUser(id: string) {
  return useQuery({
    queryKey: userKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/users/{user_id}', { params: { path: { user_id: id } } })),
    enabled: id !== 'new',
  });
}

/** Roles by name; the server lists Super Admin to super admins only. */
export function useRoles() {
  return useQuery({
    queryKey: userKeys.roles,
    queryFn: () => unwrap(api.GET('/api/roles')),
    staleTime: 5 * 60_000,
  });
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ body, sendEmail }: { body: UserCreate; sendEmail: boolean }) =>
      unwrap(api.POST('/api/users', { body, params: { query: { email: sendEmail } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserUpdate) => unwrap(api.PUT('/api/users', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}

export function useDeleteUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/users/{user_id}', { params: { path: { user_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: userKeys.all }),
  });
}

/** Sends the user a password reset email. */
export function useResetUserPassword() {
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.PUT('/api/users/{user_id}', { params: { path: { user_id: id } } })),
  });
}

/** Whether a username (email) is already taken; a failed check does not block saving. */
export async function emailExists(email: string): Promise<boolean> {
  try {
    const res = await unwrap(api.POST('/api/check/email', { body: { email } }));
    return res.exists;
  } catch {
    return false;
  }
}

export function useSaveMe() {
  return useMutation({
    mutationFn: (body: MeUpdate) => unwrap(api.PUT('/api/users/me', { body })),
  });
}
