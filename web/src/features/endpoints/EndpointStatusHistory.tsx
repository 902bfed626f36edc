import SensorsOffOutlined from '@mui/icons-material/SensorsOffOutlined';
import Box from '@mui/material/Box';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailure } from '../../components/LoadFailure';
import { formatListDate } from '../../components/format';
import { Loading } from '../../components/Loading';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { formatTemperature, formatUptime } from './endpointForm';
import { useEndpointStatusHistory } from './queries';

/** The endpoint's heartbeats, latest first: time, uptime, temperature, IP and version. */
export function EndpointStatusHistory({ id }: { id: string }) {
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState<number>(DEFAULT_PAGE_SIZE);
  const history = useEndpointStatusHistory(id, page, limit);

  if (history.isError) return <LoadFailure query={history} name="status history" />;
  if (history.isPending) return <Loading />;
  const { rows, total } = history.data;
  if (total === 0) {
    return (
      <EmptyState
        icon={<SensorsOffOutlined sx={{ fontSize: 40, opacity: 0.5 }} />}
        message="This endpoint has not reported its status yet."
      />
    );
  }
  return (
    <Box data-testid="status-history">
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Status history" sx={{ minWidth: 560 }}>
          <TableHead>
            <TableRow>
              <TableCell>Time</TableCell>
              <TableCell>Uptime</TableCell>
              <TableCell>Temperature</TableCell>
              <TableCell>IP Address</TableCell>
              <TableCell>Version</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((s, i) => (
              <TableRow key={`${s.time}-${i}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatListDate(s.time)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatUptime(s.uptime)}</TableCell>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>
                  {formatTemperature(s.readerTemp)}
                </TableCell>
                <TableCell>{s.ip}</TableCell>
                <TableCell sx={{ wordBreak: 'break-word' }}>{s.version}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
      <TablePagination
        component="div"
        count={total}
        page={page}
        rowsPerPage={limit}
        rowsPerPageOptions={[...PAGE_SIZES]}
        onPageChange={(_e, p) => setPage(p)}
        onRowsPerPageChange={(e) => {
          setLimit(Number(e.target.value));
          setPage(0);
        }}
      />
    </Box>
  );
}
