import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, apiUrl, unwrap, unwrapPage, type Page } from '../../api/client';
import type { paths } from '../../api/generated/schema';
import { sendForm } from '../../api/upload';
import type { ImageBulkEdit, ImageMeta, ImageWrite } from '../../api/types';
import { DEFAULT_PAGE_SIZE } from '../../constants';
import { searchParams, toQuery, type ImageSearch } from './search';

const imageKeys = {
  all: ['images'] as const,
  list: (search: ImageSearch) => ['images', 'list', search] as const,
  one: (id: string) => ['images', 'one', id] as const,
  uploaders: ['images', 'uploaders'] as const,
  tags: (prefix: string) => ['images', 'tags', prefix] as const,
  neighbours: (id: string, search: ImageSearch) => ['images', 'neighbours', id, search] as const,
  uploader: (id: string) => ['images', 'uploader', id] as const,
};

export type ImagePages = InfiniteData<Page<ImageMeta>, number>;

/**
 * The gallery's order: by the date each card shows (taken, else uploaded), newest first,
 * the date the search's date range applies to as well.
 */
const GALLERY_SORT = '-timestamp';

/** The gallery: pages of 25, loaded one after another (infinite scroll). */
export function useImages(search: ImageSearch) {
  return useInfiniteQuery({
    queryKey: imageKeys.list(search),
    queryFn: ({ pageParam }) =>
      unwrapPage(
        api.GET('/api/images', {
          params: {
            query: {
              ...toQuery(search),
              sort: GALLERY_SORT,
              page: pageParam,
              limit: DEFAULT_PAGE_SIZE,
            },
          },
        }),
      ),
    initialPageParam: 0,
    // A new search keeps the current cards on screen until its answer arrives.
    placeholderData: keepPreviousData,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.rows.length, 0);
      return last.rows.length > 0 && loaded < last.total ? pages.length : undefined;
    },
  });
}

export function useImage(id: string) {
  const client = useQueryClient();
  return useQuery({
    ...imageQuery(id),
    // Stepping through the gallery shows the image at once from the loaded list.
    placeholderData: () => {
      for (const [, data] of client.getQueriesData<ImagePages>({ queryKey: ['images', 'list'] })) {
        const hit = data?.pages.flatMap((p) => p.rows).find((r) => r.id === id);
        if (hit) return hit;
      }
      return undefined;
    },
  });
}

/** The organization's image tags starting with what is typed, most used first. */
export function useImageTags(prefix: string, enabled = true) {
  return useQuery({
    queryKey: imageKeys.tags(prefix),
    queryFn: () => unwrap(api.GET('/api/images/tags', { params: { query: { prefix } } })),
    enabled,
    staleTime: 30_000,
    // The last suggestions stay while the next ones load.
    placeholderData: keepPreviousData,
  });
}

const neighboursQuery = (id: string, search: ImageSearch) => ({
  queryKey: imageKeys.neighbours(id, search),
  queryFn: () =>
    unwrap(
      api.GET('/api/images/{image_id}/neighbours', {
        // The same order as the gallery's, so the arrows step through what it shows.
        params: { path: { image_id: id }, query: { ...toQuery(search), sort: GALLERY_SORT } },
      }),
    ),
});

const imageQuery = (id: string) => ({
  queryKey: imageKeys.one(id),
  queryFn: () =>
    unwrap(api.GET('/api/images/{image_id}/meta', { params: { path: { image_id: id } } })),
});

/**
 * The images before and after this one in the gallery's order for the same search; theirs
 * are fetched ahead, so that the next step shows at once.
 */
export function useImageNeighbours(id: string, search: ImageSearch) {
  const client = useQueryClient();
  const query = useQuery(neighboursQuery(id, search));
  const { data } = query;
  useEffect(() => {
    for (const other of [data?.previous, data?.next]) {
      if (!other) continue;
      void client.query(imageQuery(other)).catch(() => undefined);
      void client.query(neighboursQuery(other, search)).catch(() => undefined);
    }
  }, [client, data, search]);
  return query;
}

export function useUploaders() {
  return useQuery({
    queryKey: imageKeys.uploaders,
    queryFn: () => unwrap(api.GET('/api/images/uploaders')),
    staleTime: 60_000,
  });
}

/** The uploader's username; a failure shows 'unavailable'. */
export function useUploader(id: string | null | undefined) {
  return useQuery({
    queryKey: imageKeys.uploader(id ?? ''),
    queryFn: () =>
      unwrap(
        api.GET('/api/images/uploaders/{user_id}', { params: { path: { user_id: id ?? '' } } }),
      ),
    enabled: !!id,
    staleTime: 300_000,
    retry: false,
  });
}

export function useSaveImage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: ImageWrite }) =>
      unwrap(api.PUT('/api/images/{image_id}/meta', { params: { path: { image_id: id } }, body })),
    onSuccess: (saved) => {
      client.setQueryData(imageKeys.one(saved.id), saved);
      void client.invalidateQueries({ queryKey: ['images', 'tags'] });
      return client.invalidateQueries({ queryKey: ['images', 'list'] });
    },
  });
}

/** The server takes at most this many ids in a path (selection exports and deletes). */
export const MAX_IDS_PER_CALL = 500;

export function useDeleteImages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      for (let start = 0; start < ids.length; start += MAX_IDS_PER_CALL) {
        const part = ids.slice(start, start + MAX_IDS_PER_CALL).join(',');
        await unwrap(api.DELETE('/api/images/{ids}', { params: { path: { ids: part } } }));
      }
    },
    onSuccess: () => client.invalidateQueries({ queryKey: imageKeys.all }),
  });
}

export function useDeleteByQuery() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (search: ImageSearch) =>
      unwrap(api.DELETE('/api/images', { params: { query: toQuery(search) } })),
    onSuccess: () => client.invalidateQueries({ queryKey: imageKeys.all }),
  });
}

/** Tags and categories added to or removed from the selection (ids) or the search. */
export function useBulkEdit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ search, body }: { search: ImageSearch; body: ImageBulkEdit }) =>
      unwrap(api.POST('/api/images/edit', { params: { query: toQuery(search) }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: imageKeys.all }),
  });
}

export type ImageVariant = 'original' | 'thumb' | 'mini';

export function imageUrl(id: string, variant: ImageVariant = 'original', download = false): string {
  if (variant === 'thumb') return apiUrl('/api/images/{image_id}/thumb', { image_id: id });
  if (variant === 'mini') return apiUrl('/api/images/{image_id}/mini', { image_id: id });
  const query = download ? new URLSearchParams({ download: 'true' }) : undefined;
  return apiUrl('/api/images/{image_id}', { image_id: id }, query);
}

export type ExportKind = 'zip' | 'csv';

/** A zip or CSV of the selected images, or (no selection) of the images matching the search. */
export function exportUrl(kind: ExportKind, ids: string[], search: ImageSearch): string {
  if (ids.length > 0) {
    const path = kind === 'zip' ? '/api/images/{ids}/zip' : '/api/images/{ids}/csv';
    return apiUrl(path, { ids: ids.join(',') });
  }
  const path = kind === 'zip' ? '/api/images//zip' : '/api/images//csv';
  return apiUrl(path, {}, searchParams(search));
}

const UPLOAD_PATH: keyof paths = '/api/images';
/** The server's limit for one photo: a larger one is refused before it is sent. */
const MAX_UPLOAD_MIB = 25;

export interface UploadFields {
  tags: string[];
  categories: string[];
  /** The thing whose photos it joins (the thing Photo tab). */
  thing?: string;
  /** The category it is filed under with the thing (Things). */
  category?: string;
}

/**
 * POST images with upload progress (0-100). A browser request, since fetch reports no
 * upload progress; the path and answer are the generated client's.
 */
function uploadImage(
  file: File,
  fields: UploadFields,
  onProgress: (percent: number) => void,
): Promise<ImageMeta> {
  // The server's own words; over the limit the whole upload would be wasted.
  if (file.size > MAX_UPLOAD_MIB * 1024 * 1024) {
    return Promise.reject(new Error(`The file is over ${MAX_UPLOAD_MIB} MiB`));
  }
  const form = new FormData();
  form.append('file', file);
  for (const tag of fields.tags) form.append('tags', tag);
  for (const category of fields.categories) form.append('categories', category);
  if (fields.thing) form.append('thing', fields.thing);
  if (fields.category) form.append('category', fields.category);
  return sendForm<ImageMeta>('POST', UPLOAD_PATH, form, onProgress);
}

export function useUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      file,
      fields,
      onProgress,
    }: {
      file: File;
      fields: UploadFields;
      onProgress: (percent: number) => void;
    }) => uploadImage(file, fields, onProgress),
    onSuccess: (image) => {
      client.setQueryData(imageKeys.one(image.id), image);
      return client.invalidateQueries({ queryKey: ['images', 'list'] });
    },
  });
}

const UPLOAD_DEFAULTS_KEY = 'tagtrack.imageUploadDefaults';

/** Categories and tags remembered after a save that followed an upload. */
export function rememberedUploadFields(): UploadFields {
  try {
    const stored = JSON.parse(
      localStorage.getItem(UPLOAD_DEFAULTS_KEY) ?? '{}',
    ) as Partial<UploadFields>;
    return {
      tags: Array.isArray(stored.tags) ? stored.tags.map(String) : [],
      categories: Array.isArray(stored.categories) ? stored.categories.map(String) : [],
    };
  } catch {
    return { tags: [], categories: [] };
  }
}

export function rememberUploadFields(fields: UploadFields): void {
  localStorage.setItem(UPLOAD_DEFAULTS_KEY, JSON.stringify(fields));
}
