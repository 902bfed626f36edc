import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../api/client';
import type { ImageCategoryWrite } from '../../api/types';
import { listQueryParams, type ListQuery } from '../../components/listQuery';

export const categoryKeys = {
  all: ['image-categories'] as const,
  list: (q: ListQuery): readonly unknown[] => ['image-categories', 'list', q],
  options: ['image-categories', 'options'] as const,
  one: (id: string) => ['image-categories', 'one', id] as const,
};

/** The categories page of the generic list. */
export const categoriesListQuery = (q: ListQuery) =>
  queryOptions({
    queryKey: categoryKeys.list(q),
    queryFn: () =>
      unwrapPage(api.GET('/api/image-categories', { params: { query: listQueryParams(q) } })),
  });

/** Every visible category, by name, for the pickers. */
export function useCategoryOptions() {
  return useQuery({
    queryKey: categoryKeys.options,
    queryFn: () => unwrap(api.GET('/api/categories')),
    staleTime: 60_000,
  });
}

export function useCategory(id: string) {
  return useQuery({
    queryKey: categoryKeys.one(id),
    queryFn: () =>
      unwrap(
        api.GET('/api/image-categories/{category_id}', { params: { path: { category_id: id } } }),
      ),
    enabled: id !== 'new',
  });
}

export function useSaveCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ImageCategoryWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/image-categories', { body }))
        : unwrap(
            api.PUT('/api/image-categories/{category_id}', {
              params: { path: { category_id: id } },
              body,
            }),
          ),
    onSuccess: () => client.invalidateQueries({ queryKey: categoryKeys.all }),
  });
}

export function useDeleteCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.DELETE('/api/image-categories/{category_id}', {
          params: { path: { category_id: id } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: categoryKeys.all }),
  });
}

/** How many images carry the category, asked afresh each time a delete is confirmed. */
export function useCategoryUsage(id: string) {
  return useQuery({
    queryKey: [...categoryKeys.one(id), 'usage'],
    queryFn: () =>
      unwrap(
        api.GET('/api/image-categories/{category_id}/usage', {
          params: { path: { category_id: id } },
        }),
      ),
    staleTime: 0,
    gcTime: 0,
  });
}
