import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { ReportConfig } from '../../api/types';
import { DateRange, QUICK_RANGES } from '../../components/DateRange';
import { Fact } from '../../components/Fact';
import { lastDays, type DateRangeValue } from '../../components/format';
import { LoadGate } from '../../components/LoadGate';
import { wallClock } from '../../components/siteClock';
import { PageHeader } from '../../components/PageHeader';
import { DownloadButton } from './DownloadButton';
import { useSiteClock } from '../access/SiteContext';
import { downloadReport, useReportConfig, useReportTypes } from './queries';

const TODAY_ONLY = QUICK_RANGES.slice(0, 1);

/** A file name from the report's name (letters, digits, spaces, dashes) and its format. */
function reportFileName(name: string, format: string = 'excel'): string {
  const safe = name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim();
  return `${safe || 'report'}.${format === 'json' ? 'json' : 'xlsx'}`;
}

function ReportRun({ config }: { config: ReportConfig }) {
  const types = useReportTypes();
  const clock = useSiteClock();
  // The report's days and times are on its site's clock.
  const zone = clock.zoneOf(config.site);
  const siteNow = () => wallClock(zone);
  const [chosen, setRange] = useState<DateRangeValue | null>(null);
  const range = chosen ?? lastDays(1, siteNow());
  const type = types.data?.find((t) => t.id === config.type);
  return (
    <Box>
      <PageHeader
        title={config.name}
        subtitle={type?.name ?? config.type}
        actions={
          <DownloadButton
            label={config.format === 'json' ? 'Download Report (.JSON)' : 'Download Report (.XLSX)'}
            variant="contained"
            fileName={reportFileName(config.name, config.format)}
            fetchFile={() => downloadReport(config._id, range, zone)}
            testId="download-report"
          />
        }
      />
      <Paper
        variant="outlined"
        sx={{
          p: { xs: 2, sm: 3 },
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 1fr)',
          gap: 2.5,
        }}
      >
        <DateRange
          value={range}
          onChange={setRange}
          disableFuture
          shortcuts={TODAY_ONLY}
          now={siteNow}
        />
        <Fact label="Time Zone" testId="site-clock">
          {zone}
        </Fact>
        <Fact label="Report">{config.name}</Fact>
        <Fact label="Type" testId="report-type">
          {type?.name ?? config.type}
        </Fact>
        <Fact label="Zones">
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }} data-testid="report-zones">
            {config.zoneNames.length === 0 ? (
              <Chip size="small" label="All zones" />
            ) : (
              config.zoneNames.map((z) => (
                <Chip key={z} size="small" label={z} title={z} sx={{ maxWidth: '100%' }} />
              ))
            )}
          </Box>
        </Fact>
      </Paper>
    </Box>
  );
}

/** A custom report: choose the period and download the configured workbook. */
export default function ReportRunPage() {
  const { id = '' } = useParams();
  const query = useReportConfig(id);
  return (
    <LoadGate query={query} name="report">
      {(config) => <ReportRun key={config._id} config={config} />}
    </LoadGate>
  );
}
