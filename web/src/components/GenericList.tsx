import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import type {
  GridColDef,
  GridPaginationModel,
  GridSortModel,
  GridValidRowModel,
} from '@mui/x-data-grid';
import { DataGrid } from './DataGrid';
import { keepPreviousData, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { errorText, type Page } from '../api/client';
import { PAGE_SIZES } from '../constants';
import { useSiteNavigate, useSiteSelection } from '../features/access/SiteContext';
import { ConfirmDialog, deleteConfirmMessage } from './ConfirmDialog';
import { NoRows } from './LoadFailure';
import { listQueryFromParams, sameListQuery, withListQuery, type ListQuery } from './listQuery';
import { PageHeader } from './PageHeader';
import { useSnackbar } from './Snackbar';

export type ListColumn<T extends GridValidRowModel> = GridColDef<T> & {
  /** Left out on extra-small screens so the main columns stay readable. */
  hideOnMobile?: boolean;
};

export interface GenericListProps<T extends GridValidRowModel> {
  title: string;
  /** Query options from the feature's queries.ts for one page of rows. */
  query: (q: ListQuery) => UseQueryOptions<Page<T>, Error, Page<T>>;
  columns: ListColumn<T>[];
  getRowId: (row: T) => string;
  /** The detail route of a row, opened by a click. */
  rowPath?: (row: T) => string;
  /** The route of a new record; the Add button shows only when canAdd. */
  addPath?: string;
  addLabel?: string;
  canAdd?: boolean;
  /** Entity name for messages, e.g. 'site'. */
  name: string;
  canDelete?: boolean;
  onDelete?: (row: T) => Promise<unknown>;
  emptyMessage?: string;
  /** Uses the top-bar search (default true). */
  searchable?: boolean;
  actions?: ReactNode;
  testId?: string;
  /** Title of the delete confirmation (none by default). */
  deleteTitle?: string;
  /** Formats a failed delete; default 'Delete failed: {message}'. */
  formatError?: (err: unknown) => string;
  /**
   * The row's site id, for site-scoped records: while All Sites is selected a Site column
   * names it, so same-named records of different sites can be told apart.
   */
  siteOf?: (row: T) => string;
  /** The delete confirmation's text for a row, instead of the usual one. */
  deleteMessage?: (row: T) => ReactNode;
}

const MOBILE_MIN_WIDTH = 120;

function toSortModel(sort: string): GridSortModel {
  if (!sort) return [];
  const desc = sort.startsWith('-');
  return [{ field: desc ? sort.slice(1) : sort, sort: desc ? 'desc' : 'asc' }];
}

function fromSortModel(model: GridSortModel): string {
  const first = model.at(0);
  if (!first || !first.sort) return '';
  return `${first.sort === 'desc' ? '-' : ''}${first.field}`;
}

/** A server-paged, sortable, searchable list whose query lives in the URL. */
export function GenericList<T extends GridValidRowModel>({
  title,
  query,
  columns,
  getRowId,
  rowPath,
  addPath,
  addLabel = 'Add',
  canAdd = false,
  name,
  canDelete = false,
  onDelete,
  emptyMessage,
  searchable = true,
  actions,
  testId,
  deleteTitle,
  formatError,
  siteOf,
  deleteMessage,
}: GenericListProps<T>) {
  const [params, setParams] = useSearchParams();
  const navigate = useSiteNavigate();
  const { isAllSites, siteName } = useSiteSelection();
  const snackbar = useSnackbar();
  const mobile = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [pendingDelete, setPendingDelete] = useState<T | null>(null);
  const [deleting, setDeleting] = useState(false);

  const fromUrl = listQueryFromParams(params);
  const current: ListQuery = searchable ? fromUrl : { ...fromUrl, search: '' };
  const result = useQuery({ ...query(current), placeholderData: keepPreviousData });

  const update = (next: ListQuery) => {
    // An identical query changes nothing: no URL write, no new request.
    if (sameListQuery(next, current)) return;
    setParams((prev) => withListQuery(prev, next));
  };

  const onPagination = (model: GridPaginationModel) =>
    update({
      ...current,
      page: model.pageSize !== current.limit ? 0 : model.page,
      limit: model.pageSize,
    });

  // The grid takes a new model object as a change: a new sort model sends it back to the
  // first page. Both are kept while the URL's values stay the same.
  const paginationModel = useMemo(
    () => ({ page: current.page, pageSize: current.limit }),
    [current.page, current.limit],
  );
  const sortModel = useMemo(() => toSortModel(current.sort), [current.sort]);

  const onSort = (model: GridSortModel) =>
    update({ ...current, page: 0, sort: fromSortModel(model) });

  const shownColumns = useMemo<ListColumn<T>[]>(() => {
    if (!siteOf || !isAllSites) return columns;
    const site: ListColumn<T> = {
      field: '__site',
      headerName: 'Site',
      sortable: false,
      flex: 1.3,
      minWidth: 160,
      valueGetter: (_v, row) => siteName(siteOf(row)),
    };
    // Right after the name, the column that repeats across sites.
    return [...columns.slice(0, 1), site, ...columns.slice(1)];
  }, [columns, siteOf, isAllSites, siteName]);

  const gridColumns = useMemo<GridColDef<T>[]>(() => {
    const cols: GridColDef<T>[] = shownColumns.map((c) => {
      const { hideOnMobile: _hide, ...col } = c;
      const column = { flex: 1, minWidth: 120, ...col };
      // On a phone the columns share the width, so the delete button stays in view.
      return mobile ? { ...column, minWidth: Math.min(column.minWidth, MOBILE_MIN_WIDTH) } : column;
    });
    if (canDelete && onDelete) {
      cols.push({
        field: '__actions',
        headerName: '',
        sortable: false,
        filterable: false,
        disableColumnMenu: true,
        width: 64,
        align: 'right',
        renderCell: ({ row }) => (
          <Tooltip title="Delete">
            <IconButton
              size="small"
              aria-label="Delete"
              data-testid="row-delete"
              onClick={(e) => {
                e.stopPropagation();
                setPendingDelete(row);
              }}
            >
              <DeleteOutline fontSize="small" />
            </IconButton>
          </Tooltip>
        ),
      });
    }
    return cols;
  }, [shownColumns, canDelete, onDelete, mobile]);

  const visibility = useMemo(
    () =>
      Object.fromEntries(
        shownColumns.filter((c) => c.hideOnMobile).map((c) => [c.field, !mobile]),
      ) as Record<string, boolean>,
    [shownColumns, mobile],
  );

  const confirmDelete = async () => {
    if (!pendingDelete || !onDelete) return;
    setDeleting(true);
    try {
      await onDelete(pendingDelete);
    } catch (err) {
      snackbar.error(formatError ? formatError(err) : `Delete failed: ${errorText(err)}`);
    } finally {
      setDeleting(false);
      setPendingDelete(null);
    }
  };

  // A failed reload shows its failure, not the rows of the previous query.
  const rows = result.isError ? [] : (result.data?.rows ?? []);
  const total = result.data?.total ?? 0;
  const empty = emptyMessage ?? `No ${title.toLowerCase()} found`;

  return (
    <Box data-testid={testId ?? 'generic-list'}>
      <PageHeader
        title={title}
        subtitle={result.data ? `${total} total` : undefined}
        actions={
          <>
            {actions}
            {canAdd && addPath && (
              <Button
                variant="contained"
                startIcon={<AddIcon />}
                onClick={() => void navigate(addPath)}
                data-testid="list-add"
              >
                {addLabel}
              </Button>
            )}
          </>
        }
      />
      <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
        <DataGrid<T>
          label={title}
          rows={rows}
          columns={gridColumns}
          getRowId={getRowId}
          loading={result.isFetching}
          rowCount={total}
          paginationMode="server"
          sortingMode="server"
          filterMode="server"
          paginationModel={paginationModel}
          onPaginationModelChange={onPagination}
          pageSizeOptions={[...PAGE_SIZES]}
          sortModel={sortModel}
          onSortModelChange={onSort}
          sortingOrder={['asc', 'desc']}
          columnVisibilityModel={visibility}
          onRowClick={rowPath ? ({ row }: { row: T }) => void navigate(rowPath(row)) : undefined}
          disableRowSelectionOnClick
          disableColumnFilter
          disableColumnSelector
          density="compact"
          autoHeight
          slots={{
            noRowsOverlay: () => (
              <NoRows queries={result} name={title.toLowerCase()} message={empty} />
            ),
          }}
          sx={{
            '--DataGrid-overlayHeight': '180px',
            '& .MuiDataGrid-cell': { overflow: 'hidden', textOverflow: 'ellipsis' },
            ...(rowPath ? {} : { '& .MuiDataGrid-row': { cursor: 'default' } }),
          }}
        />
      </Paper>
      <ConfirmDialog
        open={pendingDelete !== null}
        title={deleteTitle}
        message={
          pendingDelete && deleteMessage ? deleteMessage(pendingDelete) : deleteConfirmMessage(name)
        }
        busy={deleting}
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Box>
  );
}
