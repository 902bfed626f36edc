import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import FileOpenOutlined from '@mui/icons-material/FileOpenOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import HourglassEmpty from '@mui/icons-material/HourglassEmpty';
import Sync from '@mui/icons-material/Sync';
import TaskAlt from '@mui/icons-material/TaskAlt';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { DataGrid } from '../../components/DataGrid';
import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { errorText } from '../../api/client';
import type { AssetField, ParsedSheet } from '../../api/types';
import { ChooseSite } from '../../components/ChooseSite';
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/Snackbar';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../constants';
import { usePermissions } from '../access/queries';
import { useSiteSelection } from '../access/SiteContext';
import { useSiteSettings } from '../settings/queries';
import { useZoneOptions } from '../zones/queries';
import {
  ASSET_FIELDS,
  failedText,
  FIELD_LABELS,
  headersFor,
  isXlsxName,
  mappingFor,
  mappingList,
  NO_MAPPING,
  ONLY_XLSX,
  rowChoiceText,
  runImport,
  statusTooltip,
  uploadedText,
  ZONE_INLINE,
  withNamedHeaders,
  ZONE_REQUIRED,
  type RowState,
} from './importLogic';
import { importRows, useImportFinished, useParseWorkbook, useSaveMapping } from './queries';
import { RowStatuses, useRowStatus, useStatusTotals } from './rowStatus';

// An empty choice shows its text ('No zone', 'Not imported') rather than a blank box.
const shownEmpty = { select: { displayEmpty: true }, inputLabel: { shrink: true } };

type Mapping = Partial<Record<AssetField, string>>;
// Built once per sheet: statuses live in RowStatuses, read by the cells that show them.
type PreviewRow = { id: number; row: number; cells: string[] };
// Rows offered as the header row below the current one.
const HEADER_CHOICES_BELOW = 10;

function StatusIcon({ state }: { state?: RowState }) {
  if (!state) return null;
  const icon = {
    waiting: <HourglassEmpty fontSize="small" sx={{ color: 'warning.main' }} />,
    uploading: <CircularProgress size={18} />,
    complete: <CheckCircle fontSize="small" sx={{ color: 'success.main' }} />,
    'complete duplicate': <TaskAlt fontSize="small" sx={{ color: 'success.main' }} />,
    'duplicate detected': <Sync fontSize="small" sx={{ color: 'info.main' }} />,
    error: <ErrorOutline fontSize="small" color="error" />,
  }[state.status];
  return (
    <Tooltip title={statusTooltip(state)}>
      <Box
        component="span"
        data-testid="row-status"
        data-status={state.status}
        aria-label={statusTooltip(state)}
        sx={{ display: 'inline-flex' }}
      >
        {icon}
      </Box>
    </Tooltip>
  );
}

function StatusCell({ store, index }: { store: RowStatuses; index: number }) {
  return <StatusIcon state={useRowStatus(store, index)} />;
}

// The whole reason, wrapped: it is what the user must fix in the sheet.
function ReasonCell({ store, index }: { store: RowStatuses; index: number }) {
  return (
    <Box sx={{ whiteSpace: 'normal', wordBreak: 'break-word', py: 0.75 }}>
      {useRowStatus(store, index)?.reason ?? ''}
    </Box>
  );
}

export default function ImportPage() {
  const { siteId, isAllSites } = useSiteSelection();
  const snackbar = useSnackbar();
  // Without the import right the screen is shown read-only, as the other screens are.
  const canImport = usePermissions().can('import', 'modify');
  const settings = useSiteSettings(siteId);
  const zones = useZoneOptions(isAllSites ? undefined : siteId);
  const parse = useParseWorkbook();
  const saveMapping = useSaveMapping(siteId);
  const finished = useImportFinished();
  const fileInput = useRef<HTMLInputElement>(null);

  const [sheet, setSheet] = useState<ParsedSheet | null>(null);
  const file = useRef<File | null>(null);
  const [onlyFailed, setOnlyFailed] = useState(false);
  const [fileProblem, setFileProblem] = useState('');
  const [zoneChoice, setZoneChoice] = useState({ site: siteId, zone: '' });
  const [edited, setEdited] = useState<Mapping | null>(null);
  const [statuses] = useState(() => new RowStatuses());
  const totals = useStatusTotals(statuses);
  const [running, setRunning] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [pagination, setPagination] = useState({ page: 0, pageSize: DEFAULT_PAGE_SIZE });

  const requireZone = settings.data?.importSettings?.requireZone ?? false;
  const savedMapping = useMemo(
    () =>
      settings.data?.importSettings?.importMappings?.find((m) => m.name === 'DEFAULT')
        ?.headerAssetFields ?? [],
    [settings.data],
  );

  // The saved mapping until the user changes it (it may arrive after the file was read);
  // fields it leaves out go to headers named like them.
  const mapping = useMemo(() => {
    const headers = sheet?.headers ?? [];
    return edited ?? withNamedHeaders(mappingFor(savedMapping, headers), headers);
  }, [edited, savedMapping, sheet]);
  // A zone chosen for another site is no choice here.
  const zone = zoneChoice.site === siteId ? zoneChoice.zone : '';
  const setZone = (value: string) => setZoneChoice({ site: siteId, zone: value });

  const stop = useRef(false);
  useEffect(() => {
    stop.current = false;
    return () => {
      stop.current = true;
    };
  }, []);

  const read = async (chosen: File, headerRow?: number) => {
    statuses.reset(0);
    setAttempted(false);
    setOnlyFailed(false);
    try {
      const parsed = await parse.mutateAsync({ file: chosen, headerRow });
      setSheet(parsed);
      setFileProblem('');
      setEdited(null);
      setPagination((p) => ({ ...p, page: 0 }));
    } catch (err) {
      setFileProblem(errorText(err));
      snackbar.error(`Failed to read ${chosen.name}: ${errorText(err)}`);
    }
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = '';
    if (!chosen) return;
    setSheet(null);
    file.current = null;
    if (!isXlsxName(chosen.name)) {
      setFileProblem(ONLY_XLSX);
      snackbar.error(ONLY_XLSX);
      return;
    }
    setFileProblem('');
    file.current = chosen;
    await read(chosen);
  };

  // The rows above the headers and a few below, each offered as the header row.
  const headerChoices = useMemo(() => {
    if (!sheet) return [];
    const below = sheet.rows
      .slice(0, HEADER_CHOICES_BELOW)
      .map((cells, i) => ({ row: sheet.rowNumbers[i], cells }));
    return [...sheet.above, { row: sheet.headerRow, cells: sheet.headers }, ...below];
  }, [sheet]);

  const onSaveMapping = async () => {
    const headerAssetFields = mappingList(mapping);
    if (headerAssetFields.length === 0) {
      snackbar.error(NO_MAPPING);
      return;
    }
    try {
      await saveMapping.mutateAsync({ name: 'DEFAULT', headerAssetFields });
      snackbar.notify('Header mapping saved');
    } catch (err) {
      snackbar.error(`Failed to save: ${errorText(err)}`);
    }
  };

  const onImport = async () => {
    setAttempted(true);
    if (!sheet || !siteId) return;
    const headerAssetFields = mappingList(mapping);
    if (headerAssetFields.length === 0) {
      snackbar.error(NO_MAPPING);
      return;
    }
    if (requireZone && !zone) {
      snackbar.error(ZONE_REQUIRED);
      return;
    }
    const total = sheet.rows.length;
    statuses.reset(total, { status: 'waiting' });
    setOnlyFailed(false);
    setRunning(true);
    const cellsOf = (index: number) =>
      Object.fromEntries(sheet.headers.map((h, i) => [h, sheet.rows[index][i]]));
    try {
      await runImport({
        total,
        send: (indexes, updateDuplicate) =>
          importRows({
            site: siteId,
            zone,
            headerAssetFields,
            updateDuplicate,
            rows: indexes.map((index) => ({ cells: cellsOf(index) })),
          }),
        onStatus: (index, state) => statuses.set(index, state),
        onCreatedCategories: (names) => {
          snackbar.notify(`Created new category: ${names.join(', ')}`);
        },
        stopped: () => stop.current,
      });
    } finally {
      statuses.paint();
      setRunning(false);
      finished();
    }
  };

  const allRows = useMemo<PreviewRow[]>(
    () =>
      (sheet?.rows ?? []).map((cells, id) => ({
        id,
        row: sheet?.rowNumbers[id] ?? id + 1,
        cells,
      })),
    [sheet],
  );
  const showFailed = onlyFailed && totals.failed > 0;
  // Looked for only while shown, and again when the count of failed rows changes.
  const failedCount = totals.failed;
  const failedRows = useMemo(
    () =>
      onlyFailed && failedCount > 0
        ? allRows.filter((r) => statuses.get(r.id)?.status === 'error')
        : [],
    [allRows, onlyFailed, failedCount, statuses],
  );
  const rows = showFailed ? failedRows : allRows;
  const columns = useMemo<GridColDef<PreviewRow>[]>(
    () => [
      {
        field: '__status',
        headerName: 'Status',
        width: 76,
        sortable: false,
        renderCell: ({ row }) => <StatusCell store={statuses} index={row.id} />,
      },
      // The sheet's row number, to find the row in Excel.
      { field: 'row', headerName: 'Row', width: 70, sortable: false },
      ...(showFailed
        ? [
            {
              field: '__error',
              headerName: 'Error',
              minWidth: 220,
              flex: 2,
              sortable: false,
              renderCell: ({ row }: { row: PreviewRow }) => (
                <ReasonCell store={statuses} index={row.id} />
              ),
            },
          ]
        : []),
      ...(sheet?.headers ?? []).map((header, i): GridColDef<PreviewRow> => ({
        field: `c${i}`,
        headerName: header,
        minWidth: 130,
        flex: 1,
        sortable: false,
        valueGetter: (_v, row) => row.cells[i],
      })),
    ],
    [sheet, showFailed, statuses],
  );

  if (isAllSites) {
    return (
      <Box>
        <PageHeader title="Import Assets" />
        <ChooseSite purpose="import assets into" />
      </Box>
    );
  }

  const total = sheet?.rows.length ?? 0;
  const zoneMissing = requireZone && !zone;
  const anyStatus = totals.rows > 0;

  return (
    <Box data-testid="import-page">
      <PageHeader
        title="Import Assets"
        actions={
          canImport && (
            <>
              <Button
                variant="outlined"
                onClick={() => void onSaveMapping()}
                disabled={!sheet || running || saveMapping.isPending}
                data-testid="save-mapping"
              >
                Save Mapping
              </Button>
              <Button
                variant="contained"
                startIcon={<FileUploadOutlined />}
                onClick={() => void onImport()}
                disabled={!sheet || running}
                data-testid="import-start"
              >
                Import
              </Button>
            </>
          )
        }
      />
      {!canImport && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="import-read-only">
          Your role can view this screen but not import assets.
        </Alert>
      )}
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            gap: 2,
            alignItems: 'flex-start',
          }}
        >
          <Box sx={{ flex: '1 1 16rem', minWidth: 0 }}>
            <input
              ref={fileInput}
              type="file"
              hidden
              accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              onChange={(e) => void onFile(e)}
              data-testid="import-file"
            />
            <Button
              variant="outlined"
              startIcon={parse.isPending ? <CircularProgress size={18} /> : <FileOpenOutlined />}
              onClick={() => fileInput.current?.click()}
              disabled={!canImport || running || parse.isPending}
            >
              Choose Excel File (.xlsx)
            </Button>
            <Typography
              variant="body2"
              color="text.secondary"
              noWrap
              sx={{ mt: 1 }}
              title={sheet?.fileName}
              data-testid="import-file-name"
            >
              {sheet ? `${sheet.fileName}: ${total} rows` : 'No file chosen'}
            </Typography>
          </Box>
          <TextField
            select
            label="Zone"
            value={zone}
            onChange={(e) => setZone(e.target.value)}
            slotProps={shownEmpty}
            disabled={!canImport || running}
            required={requireZone}
            error={zoneMissing && (attempted || !!sheet)}
            helperText={zoneMissing && (attempted || !!sheet) ? ZONE_INLINE : ' '}
            sx={{ flex: '1 1 14rem', minWidth: 0 }}
            data-testid="import-zone"
          >
            <MenuItem value="">
              <em>No zone</em>
            </MenuItem>
            {(zones.data ?? []).map((z) => (
              <MenuItem key={z._id} value={z._id}>
                {z.name}
              </MenuItem>
            ))}
          </TextField>
          {sheet && (
            <TextField
              select
              label="Header Row"
              value={sheet.headerRow}
              onChange={(e) => {
                if (file.current) void read(file.current, Number(e.target.value));
              }}
              disabled={running || parse.isPending}
              helperText="The row that holds the column names"
              sx={{ flex: '1 1 14rem', minWidth: 0 }}
              data-testid="import-header-row"
            >
              {headerChoices.map((c) => (
                <MenuItem key={c.row} value={c.row}>
                  {rowChoiceText(c.row, c.cells)}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Box>
        {fileProblem && (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="import-file-problem">
            {fileProblem}
          </Alert>
        )}
      </Paper>

      {sheet && (
        <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="import-mapping">
          <Typography variant="subtitle1" sx={{ mb: 1.5 }}>
            Map headers to asset fields
          </Typography>
          <Box
            sx={{
              display: 'grid',
              gap: 2,
              gridTemplateColumns: {
                xs: '1fr',
                sm: 'repeat(2, minmax(0, 1fr))',
                md: 'repeat(4, minmax(0, 1fr))',
              },
            }}
          >
            {ASSET_FIELDS.map((field) => (
              <TextField
                key={field}
                select
                size="small"
                label={FIELD_LABELS[field]}
                value={mapping[field] ?? ''}
                disabled={running}
                onChange={(e) => setEdited({ ...mapping, [field]: e.target.value })}
                slotProps={shownEmpty}
                data-testid={`map-${field}`}
              >
                <MenuItem value="">
                  <em>Not imported</em>
                </MenuItem>
                {headersFor(field, mapping, sheet.headers).map((header) => (
                  <MenuItem key={header} value={header}>
                    {header}
                  </MenuItem>
                ))}
              </TextField>
            ))}
          </Box>
          {attempted && mappingList(mapping).length === 0 && (
            <Typography variant="body2" color="error" sx={{ mt: 1 }}>
              {NO_MAPPING}
            </Typography>
          )}
        </Paper>
      )}

      {anyStatus && (
        <Box sx={{ mb: 2 }} data-testid="import-progress">
          <LinearProgress
            variant="determinate"
            value={total ? (totals.finished / total) * 100 : 0}
            aria-label="Import progress"
          />
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mt: 0.5, flexWrap: 'wrap' }}>
            <Typography variant="body2" data-testid="import-count">
              {uploadedText(totals.uploaded, total)}
            </Typography>
            {totals.failed > 0 && (
              <>
                <Typography variant="body2" color="error" data-testid="import-failed">
                  {failedText(totals.failed)}
                </Typography>
                <Button
                  size="small"
                  onClick={() => {
                    setOnlyFailed((v) => !v);
                    setPagination((p) => ({ ...p, page: 0 }));
                  }}
                  aria-pressed={showFailed}
                >
                  {showFailed ? 'Show All Rows' : 'Show Failed Rows'}
                </Button>
              </>
            )}
          </Box>
        </Box>
      )}

      <Paper variant="outlined" data-testid="import-preview">
        {sheet ? (
          <DataGrid
            rows={rows}
            columns={columns}
            autoHeight
            density="compact"
            disableRowSelectionOnClick
            disableColumnMenu
            pageSizeOptions={[...PAGE_SIZES]}
            paginationModel={pagination}
            onPaginationModelChange={setPagination}
            getRowHeight={showFailed ? () => 'auto' : undefined}
            aria-label="Preview"
          />
        ) : (
          <EmptyState message="Choose an Excel file (.xlsx) to preview its rows." />
        )}
      </Paper>
    </Box>
  );
}
