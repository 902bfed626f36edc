import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { ImportMapping, ImportRows, ParsedSheet } from '../../api/types';
import { categoryKeys } from '../categories/queries';
import { settingsKeys } from '../settings/queries';
import { thingKeys } from '../things/queries';

/** Reads the workbook on the server for the preview (nothing is stored); the headers are in
 * headerRow, else in the first non-empty row. */
export function useParseWorkbook() {
  return useMutation({
    mutationFn: ({ file, headerRow }: { file: File; headerRow?: number }): Promise<ParsedSheet> =>
      unwrap(
        api.POST('/api/import/parse', {
          params: { query: headerRow ? { headerRow } : {} },
          // The generated type names the part; the browser sends the file itself.
          body: { file: file.name },
          bodySerializer: () => {
            const form = new FormData();
            form.append('file', file);
            return form;
          },
        }),
      ),
  });
}

export function useSaveMapping(site: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportMapping) =>
      unwrap(api.PUT('/api/import/mapping', { params: { query: { site: site ?? '' } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.site(site) }),
  });
}

/** A batch of rows as items, one result per row; used many times by the import run, so not
 * a mutation hook. */
export const importRows = (body: ImportRows) =>
  unwrap(api.POST('/api/import/rows', { body })).then((answer) => answer.results);

/** After an import the lists of things and categories are out of date. */
export function useImportFinished() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: thingKeys.all });
    void client.invalidateQueries({ queryKey: categoryKeys.all });
  };
}
