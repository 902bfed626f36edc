import type { BarChartProps } from '@mui/x-charts/BarChart';
import { lazy, Suspense } from 'react';
import { Loading } from './Loading';

// Charts (about 90 KiB gzipped) load in their own chunk, after the screen around them shows.
const Chart = lazy(() => import('./BarChartChunk'));

/** MUI X's BarChart, loaded when first drawn; its space is kept while it loads. */
export function BarChart(props: BarChartProps) {
  return (
    <Suspense fallback={<Loading label="Loading chart" minHeight={props.height ?? 300} />}>
      <Chart {...props} />
    </Suspense>
  );
}
