import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, apiUrl, unwrap, unwrapPage } from '../../api/client';
import type { FloorMap, FloorMapWrite } from '../../api/types';
import { sendForm } from '../../api/upload';
import type { FieldOption } from '../../components/FormField';
import { listQueryParams, type ListQuery } from '../../components/listQuery';
import { ALL_SITES_ID } from '../../constants';
import { MAP_REFRESH_MS } from './mapLogic';

const NO_MAP: FieldOption = { value: '', label: 'None' };

const mapKeys = {
  all: ['maps'] as const,
  list: (site: string | undefined, q: ListQuery): readonly unknown[] => ['maps', 'list', site, q],
  options: (site: string | undefined) => ['maps', 'options', site] as const,
  one: (id: string) => ['maps', 'one', id] as const,
  things: (id: string, search: string) => ['maps', 'things', id, search] as const,
};

/** One page of the site's maps for the generic list. */
export const mapsListQuery = (site: string | undefined) => (q: ListQuery) =>
  queryOptions({
    queryKey: mapKeys.list(site, q),
    queryFn: () =>
      unwrapPage(api.GET('/api/maps', { params: { query: { ...listQueryParams(q), site } } })),
    enabled: site !== undefined,
  });

/** Every map of the site by name: the menu's Maps entries and the map pickers. */
export function useSiteMaps(site: string | undefined) {
  return useQuery({
    queryKey: mapKeys.options(site),
    queryFn: async () =>
      (
        await unwrapPage(
          api.GET('/api/maps', { params: { query: { site, limit: 1000, sort: 'name' } } }),
        )
      ).rows,
    enabled: !!site && site !== ALL_SITES_ID,
    staleTime: 60_000,
  });
}

/** The site's maps for a Map select: 'None' first, then each map by name. */
export function useMapOptions(site: string | undefined): FieldOption[] {
  const maps = useSiteMaps(site || undefined);
  return useMemo(
    () => [NO_MAP, ...(maps.data ?? []).map((m) => ({ value: m._id, label: m.name }))],
    [maps.data],
  );
}

export function useFloorMap(id: string) {
  return useQuery({
    queryKey: mapKeys.one(id),
    queryFn: () => unwrap(api.GET('/api/maps/{map_id}', { params: { path: { map_id: id } } })),
    enabled: id !== 'new',
    retry: false,
  });
}

/** The things placed on a map, fetched again every 10 s while the view is open. */
export function useMapThings(id: string, search: string, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: mapKeys.things(id, search),
    queryFn: () =>
      unwrap(
        api.GET('/api/maps/{map_id}/things', {
          params: { path: { map_id: id }, query: search ? { search } : {} },
        }),
      ),
    placeholderData: (previous) => previous,
    refetchInterval: MAP_REFRESH_MS,
    retry: false,
  });
}

export function useSaveFloorMap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: FloorMapWrite }) =>
      id === 'new'
        ? unwrap(api.POST('/api/maps', { body }))
        : unwrap(api.PUT('/api/maps/{map_id}', { params: { path: { map_id: id } }, body })),
    onSuccess: (saved: FloorMap) => {
      client.setQueryData(mapKeys.one(saved._id), saved);
      return client.invalidateQueries({ queryKey: mapKeys.all });
    },
  });
}

/** Upload progress 0-100 of a floor plan; at 100 the server is still at work on it. */
export type PlanProgress = (percent: number) => void;

/** A new map with its floor plan, in one request: both are saved or neither. */
export function useCreateFloorMapWithPlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      body,
      file,
      onProgress,
    }: {
      body: FloorMapWrite;
      file: File;
      onProgress: PlanProgress;
    }) => {
      const form = new FormData();
      form.append('map', JSON.stringify(body));
      form.append('file', file);
      return sendForm<FloorMap>('POST', apiUrl('/api/maps/withplan'), form, onProgress);
    },
    onSuccess: (saved: FloorMap) => {
      client.setQueryData(mapKeys.one(saved._id), saved);
      return client.invalidateQueries({ queryKey: mapKeys.all });
    },
  });
}

/** Upload (or replace) a map's floor-plan picture. */
export function useUploadFloorPlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      id,
      file,
      onProgress,
    }: {
      id: string;
      file: File;
      onProgress: PlanProgress;
    }) => {
      const form = new FormData();
      form.append('file', file);
      const url = apiUrl('/api/maps/{map_id}/image', { map_id: id });
      return sendForm<FloorMap>('PUT', url, form, onProgress);
    },
    onSuccess: (saved: FloorMap) => {
      client.setQueryData(mapKeys.one(saved._id), saved);
      return client.invalidateQueries({ queryKey: mapKeys.all });
    },
  });
}

export function useDeleteFloorMap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE('/api/maps/{map_id}', { params: { path: { map_id: id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: mapKeys.all }),
  });
}
