import BarChartOutlined from '@mui/icons-material/BarChartOutlined';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import { BarChart } from '../../components/BarChart';
import { useMemo } from 'react';
import { NoRows, type Retryable } from '../../components/LoadFailure';
import { shortText } from '../../components/format';
import { Loading } from '../../components/Loading';
import type { Labels } from '../settings/labels';
import { zoneBars, zoneSeries, type ZoneCounts } from './homeLogic';

const BAR_GROUP_PX = 44;

/** Zone Overview: a horizontal bar chart of the things in each zone. */
export function ZoneOverview({
  zones,
  loading,
  queries,
  labels,
}: {
  zones: readonly ZoneCounts[] | undefined;
  loading: boolean;
  /** The loads behind the chart: a failure shows instead of the chart, with Retry. */
  queries: Retryable | Retryable[];
  labels: Labels;
}) {
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const dataset = useMemo(() => zoneBars(zones ?? []), [zones]);
  const series = useMemo(() => zoneSeries(labels), [labels]);
  const nameChars = mobile ? 12 : 22;

  if (loading) return <Loading />;
  if (dataset.length === 0 || [queries].flat().some((q) => q.isError)) {
    return (
      <NoRows
        queries={queries}
        name="zones"
        icon={<BarChartOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
        message="No zones to show for this site yet."
      />
    );
  }
  const perZone = labels.hideWorkers ? BAR_GROUP_PX * 0.6 : BAR_GROUP_PX;
  return (
    <Box data-testid="zone-chart" sx={{ width: '100%', minWidth: 0 }}>
      <BarChart
        dataset={dataset.map((d) => ({ ...d }))}
        layout="horizontal"
        yAxis={[
          {
            scaleType: 'band',
            dataKey: 'zone',
            width: mobile ? 90 : 150,
            valueFormatter: (name: string, ctx) =>
              ctx.location === 'tick' ? shortText(name, nameChars) : name,
          },
        ]}
        xAxis={[{ tickMinStep: 1 }]}
        series={series.map((s) => ({ dataKey: s.dataKey, label: s.label }))}
        height={Math.max(220, dataset.length * perZone + 90)}
        margin={{ right: 16 }}
        grid={{ vertical: true }}
        // A dashboard that refreshes (and prints) shows the counts as they are, at once.
        skipAnimation
      />
    </Box>
  );
}
