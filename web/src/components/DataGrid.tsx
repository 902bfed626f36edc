import type { DataGridProps, GridValidRowModel } from '@mui/x-data-grid';
import { lazy, Suspense, type ComponentType } from 'react';
import { Loading } from './Loading';

// The data grid is the largest part of a list screen (about 120 KiB gzipped): the screen's
// header and filters show first, and the grid follows in its own chunk.
const Grid = lazy(() => import('./DataGridChunk')) as unknown as ComponentType<
  DataGridProps<GridValidRowModel>
>;

/** MUI X's DataGrid, loaded with the first screen that shows one. */
export function DataGrid<R extends GridValidRowModel>(props: DataGridProps<R>) {
  return (
    <Suspense fallback={<Loading label={`Loading ${props.label ?? 'rows'}`} minHeight={220} />}>
      <Grid {...(props as DataGridProps<GridValidRowModel>)} />
    </Suspense>
  );
}
