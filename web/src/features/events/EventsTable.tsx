import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlineOutlined';
import HelpOutline from '@mui/icons-material/HelpOutlineOutlined';
import NotificationImportant from '@mui/icons-material/NotificationImportant';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { SxProps, Theme } from '@mui/material/styles';
import { memo, useCallback, useState, type ReactNode } from 'react';
import type { TrackEvent } from '../../api/types';
import { NoRows } from '../../components/LoadFailure';
import { Loading } from '../../components/Loading';
import { Pager } from '../../components/Pager';
import { formatListDate } from '../../components/format';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { useSiteNavigate } from '../access/SiteContext';
import { eventThingPath, formatEventData, formatFirstTime, isMatched } from './eventLogic';
import { useEventsPage, type EventFilter } from './queries';

/**
 * The tag with its state icons. Their hints are the icons' own titles, which the browser
 * shows on hover: a page of rows then draws no tooltip components, on a phone's slow CPU.
 */
function TagCell({ event, compact }: { event: TrackEvent; compact: boolean }) {
  const matched = isMatched(event);
  return (
    <div className="event-tag">
      {matched ? (
        <CheckCircleOutline
          fontSize="small"
          color="success"
          aria-label="matched"
          titleAccess={event.thingName ? `Matched: ${event.thingName}` : 'Matched'}
          data-testid="matched"
        />
      ) : compact ? (
        <HelpOutline
          fontSize="small"
          color="warning"
          aria-label="unmatched"
          titleAccess="unmatched"
          data-testid="unmatched"
        />
      ) : (
        <Chip
          size="small"
          variant="outlined"
          color="warning"
          label="unmatched"
          data-testid="unmatched"
        />
      )}
      <span title={event.tag}>{event.tag}</span>
      {event.alarmTamper && (
        <NotificationImportant
          fontSize="small"
          color="error"
          aria-label="Tamper alarm"
          titleAccess="Tamper alarm"
          data-testid="tamper-alarm"
        />
      )}
    </div>
  );
}

interface Column {
  field: string;
  headerName: string;
  width: number;
  numeric?: boolean;
  /** Shown on a phone too. */
  mobile?: boolean;
  value: (event: TrackEvent) => ReactNode;
}

const columns: readonly Column[] = [
  { field: 'tag', headerName: 'Tag', width: 210, mobile: true, value: () => null },
  {
    field: 'firstTime',
    headerName: 'Last Full Event',
    width: 175,
    value: (e) => formatFirstTime(e.firstTime),
  },
  {
    field: 'time',
    headerName: 'Last Seen',
    width: 175,
    mobile: true,
    value: (e) => formatListDate(e.time),
  },
  {
    field: 'repeatCount',
    headerName: 'Repeat Event Count',
    width: 100,
    numeric: true,
    value: (e) => e.repeatCount,
  },
  { field: 'direction', headerName: 'Direction', width: 85, value: (e) => e.direction },
  { field: 'endpointName', headerName: 'Endpoint', width: 120, value: (e) => e.endpointName },
  { field: 'data', headerName: 'Data', width: 80, value: (e) => formatEventData(e.data) },
  { field: 'locationTagName', headerName: 'Location', width: 100, value: (e) => e.locationTagName },
  { field: 'antenna', headerName: 'Antenna', width: 80, numeric: true, value: (e) => e.antenna },
  { field: 'zoneName', headerName: 'Zone', width: 110, value: (e) => e.zoneName },
];

const mobileColumns = columns.filter((c) => c.mobile);

// Styles are set once on the table, not per cell: a page of rows then renders quickly. The
// rows are plain table rows and cells, drawn as MUI's TableRow and TableCell draw them.
const tableSx: SxProps<Theme> = (theme) => ({
  tableLayout: 'fixed',
  width: '100%',
  '& th, & td': {
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
    height: 36,
  },
  '& th': { height: 40, py: 0, fontWeight: 500 },
  '& tbody tr': { verticalAlign: 'middle', outline: 0 },
  '& tbody tr:hover': { backgroundColor: theme.palette.action.hover },
  '& tbody td': {
    typography: 'body2',
    color: theme.palette.text.primary,
    textAlign: 'left',
    padding: '0 16px',
    borderBottom: `1px solid ${theme.lighten(theme.alpha(theme.palette.divider, 1), 0.88)}`,
  },
  '& tbody td.event-number': { textAlign: 'right' },
  '& .event-matched': { cursor: 'pointer' },
  '& .event-unmatched': { cursor: 'default' },
  '& .event-tag': { display: 'flex', alignItems: 'center', gap: 0.75, minWidth: 0 },
  '& .event-tag > span': { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  '& .event-tag .MuiChip-root': { height: 20, fontSize: 11 },
});

/**
 * One row; memoised: a refresh keeps the objects of unchanged rows (TanStack Query shares
 * them), so a row renders again only when its place shows another or a changed event.
 */
const EventRow = memo(function EventRow({
  row,
  shown,
  compact,
  onOpen,
}: {
  row: TrackEvent;
  shown: readonly Column[];
  compact: boolean;
  onOpen: (path: string) => void;
}) {
  const path = eventThingPath(row);
  return (
    <tr
      role="row"
      className={path ? 'event-matched' : 'event-unmatched'}
      onClick={path ? () => onOpen(path) : undefined}
    >
      {shown.map((c) => (
        <td key={c.field} role="gridcell" className={c.numeric ? 'event-number' : undefined}>
          {c.field === 'tag' ? <TagCell event={row} compact={compact} /> : c.value(row)}
        </td>
      ))}
    </tr>
  );
});

/**
 * Events, latest first, paged on the server: the Events page (live, or polling when it
 * cannot be) and a thing's Events tab. A row opens its thing, except the unknown placeholder.
 * A plain table: the columns neither sort nor resize, and the page renders it at once.
 * Memoised: the page's filter bar filling in (endpoints, pickers) leaves the table alone.
 */
export const EventsTable = memo(function EventsTable({
  filter,
  poll = false,
  enabled = true,
  label = 'Events',
}: {
  filter: EventFilter;
  poll?: boolean;
  enabled?: boolean;
  label?: string;
}) {
  const navigate = useSiteNavigate();
  // One function for every render, or no row's memo would hold.
  const openThing = useCallback((path: string) => void navigate(path), [navigate]);
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [pagination, setPagination] = useState({ page: 0, pageSize: DEFAULT_PAGE_SIZE });
  const filterKey = JSON.stringify(filter);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  // A new filter starts from the first page.
  if (filterKey !== lastFilterKey) {
    setLastFilterKey(filterKey);
    setPagination((p) => ({ ...p, page: 0 }));
  }
  const result = useEventsPage(filter, pagination.page, pagination.pageSize, { poll, enabled });
  const total = result.data?.total ?? 0;
  const rows = result.isError ? [] : (result.data?.rows ?? []);
  // Only the first load shows progress: polling refreshes quietly.
  const loading = result.isPending && enabled;
  // On a phone the two columns share the width evenly.
  const shown = mobile ? mobileColumns : columns;

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      {/* Focusable, so a keyboard scrolls the wide table too. */}
      <Box sx={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
        <Table
          role="grid"
          aria-label={label}
          aria-rowcount={total + 1}
          size="small"
          sx={tableSx}
          style={{ minWidth: shown.reduce((sum, c) => sum + (mobile ? 160 : c.width), 0) }}
        >
          <TableHead>
            <TableRow role="row">
              {shown.map((c) => (
                <TableCell
                  key={c.field}
                  role="columnheader"
                  align={c.numeric ? 'right' : 'left'}
                  style={mobile ? undefined : { width: c.width }}
                >
                  {c.headerName}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {/* Keyed by place, not by event: when new events arrive on top, each row keeps
                its place and takes the next event, instead of every row sliding down (a layout
                shift for every live update). */}
            {rows.map((row, place) => (
              <EventRow key={place} row={row} shown={shown} compact={mobile} onOpen={openThing} />
            ))}
          </TableBody>
        </Table>
        {rows.length === 0 && (
          <Box sx={{ height: 180 }}>
            {loading ? (
              <Loading label="Loading events" minHeight={180} />
            ) : (
              <NoRows queries={result} name="events" message="No events in this period" />
            )}
          </Box>
        )}
      </Box>
      <Pager
        count={total}
        page={pagination.page}
        pageSize={pagination.pageSize}
        pageSizes={PAGE_SIZES}
        onPageChange={(page) => setPagination((p) => ({ ...p, page }))}
        onPageSizeChange={(pageSize) => setPagination({ page: 0, pageSize })}
      />
    </Paper>
  );
});
