import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { TrackExceptionDetail } from '../../api/types';
import { DateRange } from '../../components/DateRange';
import { EmptyState } from '../../components/EmptyState';
import { Fact } from '../../components/Fact';
import { formatListDate, type DateRangeValue } from '../../components/format';
import { LoadGate } from '../../components/LoadGate';
import { PageHeader } from '../../components/PageHeader';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { EventsTable } from '../events/EventsTable';
import { useSiteNavigate, useSitePath } from '../access/SiteContext';
import { useSiteLabels } from '../settings/queries';
import {
  exceptionEventPeriod,
  exceptionMessage,
  exceptionTypeName,
  isInventoryException,
} from './exceptionLogic';
import { useException } from './queries';

type ExceptionThing = TrackExceptionDetail['things'][number];

function ZoneTimeEvents({ exception }: { exception: TrackExceptionDetail }) {
  const [range, setRange] = useState<DateRangeValue>(() => exceptionEventPeriod(exception));
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <DateRange value={range} onChange={setRange} />
      <EventsTable
        filter={{
          site: exception.site,
          thing: exception.thing,
          after: range.start.toISOString(),
          before: range.end.toISOString(),
        }}
      />
    </Box>
  );
}

function InventoryThings({ exception }: { exception: TrackExceptionDetail }) {
  const navigate = useSiteNavigate();
  const labels = useSiteLabels(exception.site);
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const columns: GridColDef<ExceptionThing>[] = [
    { field: 'name', headerName: labels.itemName, flex: 1, minWidth: 140 },
    { field: 'tag', headerName: 'Tag', flex: 1, minWidth: 140 },
    { field: 'zoneName', headerName: 'Current Zone', flex: 1, minWidth: 120 },
    {
      field: 'lastEvent',
      headerName: 'Last Seen',
      flex: 1,
      minWidth: 180,
      valueFormatter: (value: string) => formatListDate(value),
    },
  ];
  return (
    <DataGrid<ExceptionThing>
      label="Things"
      rows={exception.things}
      columns={columns}
      getRowId={(t) => t._id}
      initialState={{ pagination: { paginationModel: { pageSize: DEFAULT_PAGE_SIZE } } }}
      pageSizeOptions={[...PAGE_SIZES]}
      columnVisibilityModel={{ tag: !mobile, lastEvent: !mobile }}
      onRowClick={({ row }: { row: ExceptionThing }) => void navigate(`/things/${row._id}`)}
      disableRowSelectionOnClick
      disableColumnSelector
      density="compact"
      autoHeight
      slots={{ noRowsOverlay: () => <EmptyState message="These things no longer exist." /> }}
      sx={{
        '--DataGrid-overlayHeight': '160px',
        '& .MuiDataGrid-row': { cursor: 'pointer' },
        '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
      }}
    />
  );
}

function ExceptionView({ exception }: { exception: TrackExceptionDetail }) {
  const navigate = useNavigate();
  const sitePath = useSitePath();
  const labels = useSiteLabels(exception.site);
  const inventory = isInventoryException(exception.type);
  const message = exceptionMessage(exception);
  return (
    <Box>
      <PageHeader
        title={
          <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <Tooltip title="Back">
              <IconButton
                aria-label="Back"
                onClick={() => void navigate(-1)}
                size="small"
                edge="start"
              >
                <ArrowBack />
              </IconButton>
            </Tooltip>
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {`Exception: ${message}`}
            </Box>
          </Box>
        }
      />
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, mb: 2 }}>
        <Box
          data-testid="exception-facts"
          sx={{
            display: 'grid',
            gridTemplateColumns: {
              xs: '1fr',
              sm: 'repeat(2, minmax(0, 1fr))',
              md: 'repeat(4, minmax(0, 1fr))',
            },
            gap: 2,
          }}
        >
          <Fact label="Time">{formatListDate(exception.time)}</Fact>
          <Fact label="Type">{exceptionTypeName(exception.type)}</Fact>
          <Fact label="Zone">{exception.zoneName}</Fact>
          {inventory ? (
            <Fact label="Things">{String(exception.multipleThings.length)}</Fact>
          ) : (
            <Fact label={labels.itemName}>
              {exception.thing && exception.thingName ? (
                <Link to={sitePath(`/things/${exception.thing}`)}>{exception.thingName}</Link>
              ) : (
                exception.thingName
              )}
            </Fact>
          )}
        </Box>
        <Typography
          variant="h6"
          component="p"
          color="error"
          sx={{ mt: 2, overflowWrap: 'anywhere' }}
          data-testid="exception-message"
        >
          {message}
        </Typography>
      </Paper>
      <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 }, overflow: 'hidden' }}>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1.5, fontWeight: 600 }}>
          {inventory ? 'Things' : 'Events'}
        </Typography>
        {inventory ? (
          <InventoryThings exception={exception} />
        ) : (
          <ZoneTimeEvents exception={exception} />
        )}
      </Paper>
    </Box>
  );
}

/** Exception detail: time, the message of its type, and its events or its things. */
export default function ExceptionDetailPage() {
  const { id = '' } = useParams();
  const query = useException(id);
  return (
    <LoadGate query={query} name="exception">
      {(exception) => <ExceptionView key={exception._id} exception={exception} />}
    </LoadGate>
  );
}
