import KeyboardArrowDown from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowRight from '@mui/icons-material/KeyboardArrowRight';
import UnfoldLess from '@mui/icons-material/UnfoldLess';
import UnfoldMore from '@mui/icons-material/UnfoldMore';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import type { ActivityThing } from '../../api/types';
import { DateRange } from '../../components/DateRange';
import { NoRows } from '../../components/LoadFailure';
import {
  DAY_FORMAT,
  formatDate,
  formatHoursMinutes,
  lastDays,
  type DateRangeValue,
} from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { formatOnClock, wallClock } from '../../components/siteClock';
import { useSiteClock, useSiteSelection } from '../access/SiteContext';
import { useSiteLabels } from '../settings/queries';
import {
  ACTIVITY_PAGE_SIZES,
  ALL_ROWS,
  activityRows,
  pageOf,
  reportedThings,
  toggleAll,
  toggleOne,
} from './activityLogic';
import { DownloadButton } from './DownloadButton';
import { downloadActivity, useActivity } from './queries';

const TIME_FORMAT = 'hh:mm:ss a';
const ellipsis = {
  maxWidth: 0,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
} as const;

/** Activity: the hours each thing was on site, per day, in a period up to today. */
export default function ActivityPage() {
  const { site, siteId } = useSiteSelection();
  const clock = useSiteClock();
  const labels = useSiteLabels(siteId);
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  // Days on the site's clock: until one is chosen, today is the site's today.
  const siteNow = () => wallClock(clock.zone);
  const [chosen, setRangeState] = useState<DateRangeValue | null>(null);
  const range = chosen ?? lastDays(1, siteNow());
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState<number>(ACTIVITY_PAGE_SIZES[0]);
  const activity = useActivity(siteId, range, clock.zone);

  const things = useMemo(
    () => reportedThings(activity.data ?? [], labels.hideWorkers),
    [activity.data, labels.hideWorkers],
  );
  const rows = useMemo(
    () => activityRows(pageOf(things, page, pageSize), expanded),
    [things, page, pageSize, expanded],
  );
  // A new period starts from the first page; the report itself reloads by its key.
  const setRange = (next: DateRangeValue) => {
    setRangeState(next);
    setPage(0);
  };
  const lastPage = pageSize === ALL_ROWS ? 0 : Math.max(0, Math.ceil(things.length / pageSize) - 1);
  const shownPage = Math.min(page, lastPage);
  const classLabel = (t: ActivityThing) =>
    t.thingClass === 'worker' ? labels.worker : labels.item;

  let body;
  if (!!siteId && activity.isPending) body = <Loading />;
  else if (things.length === 0 || activity.isError) {
    body = <NoRows queries={activity} name="activity" message="No activity in this period." />;
  } else {
    body = (
      <>
        <TableContainer>
          <Table size="small" aria-label="Activity" sx={{ tableLayout: 'fixed', minWidth: 0 }}>
            <TableHead>
              <TableRow>
                <TableCell sx={{ width: 48 }} />
                <TableCell>{labels.itemName}</TableCell>
                {!mobile && <TableCell sx={{ width: '16%' }}>Tag</TableCell>}
                {!mobile && <TableCell sx={{ width: '9%' }}>Type</TableCell>}
                {!mobile && <TableCell sx={{ width: '14%' }}>First Seen</TableCell>}
                {!mobile && <TableCell sx={{ width: '14%' }}>Last Seen</TableCell>}
                <TableCell align="right" sx={{ width: mobile ? 64 : 90 }}>
                  Hours
                </TableCell>
                <TableCell align="right" sx={{ width: mobile ? 76 : 80 }}>
                  Events
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) =>
                row.kind === 'thing' ? (
                  <TableRow
                    key={row.key}
                    hover
                    data-testid="activity-thing"
                    onClick={() => setExpanded((e) => toggleOne(e, row.thing.thing))}
                    sx={{ cursor: 'pointer', '& > td': { fontWeight: 500 } }}
                  >
                    <TableCell padding="checkbox">
                      <IconButton
                        size="small"
                        aria-label={row.expanded ? 'Collapse' : 'Expand'}
                        aria-expanded={row.expanded}
                      >
                        {row.expanded ? <KeyboardArrowDown /> : <KeyboardArrowRight />}
                      </IconButton>
                    </TableCell>
                    <TableCell sx={ellipsis} title={row.thing.thingName}>
                      {row.thing.thingName || '—'}
                      <Box component="span" sx={{ color: 'text.secondary', fontWeight: 400 }}>
                        {` · ${row.thing.days.length} ${row.thing.days.length === 1 ? 'day' : 'days'}`}
                      </Box>
                    </TableCell>
                    {!mobile && (
                      <TableCell sx={ellipsis} title={row.thing.thingTag}>
                        {row.thing.thingTag}
                      </TableCell>
                    )}
                    {!mobile && <TableCell sx={ellipsis}>{classLabel(row.thing)}</TableCell>}
                    {!mobile && <TableCell colSpan={2} />}
                    <TableCell align="right">
                      {formatHoursMinutes(row.thing.timeDuration)}
                    </TableCell>
                    <TableCell align="right">{row.thing.events}</TableCell>
                  </TableRow>
                ) : (
                  <TableRow
                    key={row.key}
                    data-testid="activity-day"
                    sx={{ bgcolor: 'action.hover', '& > td': { color: 'text.secondary' } }}
                  >
                    <TableCell />
                    <TableCell sx={{ ...ellipsis, pl: 4 }}>
                      {formatDate(dayjs(row.day.day), DAY_FORMAT)}
                    </TableCell>
                    {!mobile && <TableCell colSpan={2} />}
                    {!mobile && (
                      <TableCell>
                        {formatOnClock(
                          row.day.firstSeen,
                          TIME_FORMAT,
                          clock.zoneOf(row.thing.site),
                        )}
                      </TableCell>
                    )}
                    {!mobile && (
                      <TableCell>
                        {formatOnClock(row.day.lastSeen, TIME_FORMAT, clock.zoneOf(row.thing.site))}
                      </TableCell>
                    )}
                    <TableCell align="right">{formatHoursMinutes(row.day.timeDuration)}</TableCell>
                    <TableCell align="right">{row.day.events}</TableCell>
                  </TableRow>
                ),
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={things.length}
          page={pageSize === ALL_ROWS ? 0 : shownPage}
          rowsPerPage={pageSize}
          rowsPerPageOptions={[...ACTIVITY_PAGE_SIZES, { label: 'All', value: ALL_ROWS }]}
          onPageChange={(_e, next) => setPage(next)}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
          labelRowsPerPage={mobile ? 'Rows:' : 'Things per page:'}
        />
      </>
    );
  }

  return (
    <Box>
      <PageHeader
        title="Activity"
        subtitle={site && <span data-testid="site-clock">{`${site.name} · ${clock.note}`}</span>}
        actions={
          <>
            <Button
              variant="outlined"
              startIcon={<UnfoldMore />}
              onClick={() => setExpanded(toggleAll(things, true))}
              disabled={things.length === 0}
            >
              Expand All
            </Button>
            <Button
              variant="outlined"
              startIcon={<UnfoldLess />}
              onClick={() => setExpanded(toggleAll(things, false))}
              disabled={expanded.size === 0}
            >
              Collapse All
            </Button>
            <DownloadButton
              label="Download XLSX"
              fileName="activity.xlsx"
              fetchFile={() => downloadActivity(siteId ?? '', range, clock.zone)}
              disabled={!siteId}
            />
          </>
        }
      />
      <Box sx={{ mb: 2, '@media print': { display: 'none' } }}>
        <DateRange value={range} onChange={setRange} disableFuture now={siteNow} />
      </Box>
      <Paper variant="outlined" sx={{ overflow: 'hidden', position: 'relative' }}>
        {activity.isFetching && !activity.isPending && (
          <LinearProgress
            aria-label="Refreshing"
            sx={{ position: 'absolute', top: 0, left: 0, right: 0 }}
          />
        )}
        {body}
      </Paper>
    </Box>
  );
}
