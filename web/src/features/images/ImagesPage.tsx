import Deselect from '@mui/icons-material/Deselect';
import CloudUpload from '@mui/icons-material/CloudUpload';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Fab from '@mui/material/Fab';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { failureText } from '../../api/client';
import type { ImageMeta } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { LoadFailure } from '../../components/LoadFailure';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useSnackbar } from '../../components/Snackbar';
import { usePermissions } from '../access/queries';
import { useSiteNavigate } from '../access/SiteContext';
import type { BulkChanges } from './BulkEditDialog';
import { ImageCard } from './ImageCard';
import { devicePosition, locationOf } from './location';
import {
  exportUrl,
  imageUrl,
  MAX_IDS_PER_CALL,
  rememberedUploadFields,
  useBulkEdit,
  useDeleteByQuery,
  useDeleteImages,
  useImages,
  useSaveImage,
  useUpload,
  type ExportKind,
} from './queries';
import { isSearchActive, searchFromParams, searchParams, withImageSearch } from './search';

// The bulk edit dialog (with its pickers) loads the first time it opens.
const BulkEditDialog = lazy(() =>
  import('./BulkEditDialog').then((m) => ({ default: m.BulkEditDialog })),
);

/** Load the next page when the bottom of the page is this close. */
const INFINITE_SCROLL_PX = 400;
/** Individual downloads run one after another, this far apart. */
const DOWNLOAD_GAP_MS = 100;
const DELETE_WORD = 'delete';

function download(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

const wait = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

export default function ImagesPage() {
  const theme = useTheme();
  const compact = useMediaQuery(theme.breakpoints.down('sm'));
  const perms = usePermissions();
  const snackbar = useSnackbar();
  const navigate = useSiteNavigate();
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => searchFromParams(params), [params]);
  const searching = isSearchActive(search);
  const images = useImages(search);
  const rows = useMemo(() => images.data?.pages.flatMap((p) => p.rows) ?? [], [images.data]);
  const total = images.data?.pages[0]?.total ?? 0;

  const [selected, setSelected] = useState<Map<string, ImageMeta>>(new Map());
  const selectionMode = selected.size > 0;
  const [progress, setProgress] = useState<number | null>(null);
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const [editing, setEditing] = useState(false);
  // Mounted from the first opening on, so it closes with its transition.
  const [editedOnce, setEditedOnce] = useState(false);
  if (editing && !editedOnce) setEditedOnce(true);
  const [deleting, setDeleting] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  const upload = useUpload();
  const save = useSaveImage();
  const bulkEdit = useBulkEdit();
  const removeSelected = useDeleteImages();
  const removeByQuery = useDeleteByQuery();

  // Infinite scroll: the next page loads within 400px of the page bottom.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = images;
  useEffect(() => {
    const check = () => {
      const bottom = window.innerHeight + window.scrollY;
      if (
        hasNextPage &&
        !isFetchingNextPage &&
        bottom >= document.documentElement.scrollHeight - INFINITE_SCROLL_PX
      ) {
        void fetchNextPage();
      }
    };
    check();
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, rows.length]);

  const setSearch = (next: typeof search) => setParams((prev) => withImageSearch(prev, next));
  const toggle = (image: ImageMeta) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (next.has(image.id)) next.delete(image.id);
      else next.set(image.id, image);
      return next;
    });
  const clearSelection = () => setSelected(new Map());
  const listQuery = searchParams(search).toString();
  const open = (id: string) => navigate(`/images/${id}${listQuery ? `?${listQuery}` : ''}`);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProgress(0);
    try {
      let image = await upload.mutateAsync({
        file,
        fields: rememberedUploadFields(),
        onProgress: setProgress,
      });
      // A photo without a location takes the device's, when it can tell.
      if (!locationOf(image)) {
        const position = await devicePosition();
        if (position) {
          try {
            image = await save.mutateAsync({
              id: image.id,
              body: { ...image, location: { type: 'Point', coordinates: position } },
            });
          } catch (err) {
            console.error('Saving the device location failed', err);
          }
        }
      }
      setProgress(null);
      void navigate(`/images/${image.id}?fromUpload=true`);
    } catch (err) {
      setProgress(null);
      snackbar.error(failureText('Error uploading file', err));
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const ids = [...selected.keys()];
  const count = selectionMode ? selected.size : total;

  const applyBulk = async (changes: BulkChanges) => {
    setEditing(false);
    try {
      await bulkEdit.mutateAsync({
        search,
        body: { ids: selectionMode ? ids : null, ...changes },
      });
      clearSelection();
      snackbar.notify('Saved');
    } catch (err) {
      snackbar.error(failureText('Error editing images', err));
    }
  };

  const confirmDelete = async () => {
    try {
      if (selectionMode) await removeSelected.mutateAsync(ids);
      else await removeByQuery.mutateAsync(search);
      setDeleting(false);
      clearSelection();
      snackbar.notify('Deleted');
    } catch (err) {
      setDeleting(false);
      snackbar.error(failureText('Error deleting images', err));
    }
  };

  const runExport = async (kind: ExportKind | 'individual') => {
    setExportAnchor(null);
    if (kind === 'individual') {
      for (const image of selected.values()) {
        const format = image.cloud_photos[0]?.format || 'jpg';
        download(imageUrl(image.id, 'original', true), `${image.id}.${format}`);
        await wait(DOWNLOAD_GAP_MS);
      }
      return;
    }
    if (ids.length > MAX_IDS_PER_CALL) {
      snackbar.error(`Select at most ${MAX_IDS_PER_CALL} images to export, or export a search`);
      return;
    }
    download(exportUrl(kind, ids, search), `images.${kind}`);
  };

  const canCreate = perms.can('images', 'create');
  const canModify = perms.can('images', 'modify');
  const canDelete = perms.can('images', 'delete');
  const bulkActions = selectionMode || searching;
  const uploading = progress !== null;

  return (
    <Box sx={{ pb: 12 }}>
      <PageHeader
        title="Images"
        subtitle={
          images.isSuccess
            ? selectionMode
              ? `${selected.size} selected of ${total}`
              : `${total} image(s)`
            : undefined
        }
      />
      {rows.length > 0 && (
        <Typography
          variant="caption"
          color="text.secondary"
          component="p"
          sx={{ mt: -1, mb: 1.5 }}
          data-testid="gallery-order"
        >
          Newest first by the date shown: when the photo was taken, else when it was uploaded.
        </Typography>
      )}
      {images.isPending ? (
        <Loading />
      ) : images.isError ? (
        <LoadFailure query={images} name="images" />
      ) : rows.length === 0 ? (
        <EmptyState message={searching ? 'No images match the search' : 'No images yet'} />
      ) : (
        <Box
          data-testid="image-gallery"
          sx={{
            display: 'grid',
            gap: 1.5,
            gridTemplateColumns: compact ? '1fr' : 'repeat(auto-fill, minmax(220px, 1fr))',
          }}
        >
          {rows.map((image) => (
            <ImageCard
              key={image.id}
              image={image}
              compact={compact}
              selected={selected.has(image.id)}
              selectionMode={selectionMode}
              onOpen={() => void open(image.id)}
              onToggle={() => toggle(image)}
              onTag={(tag) => setSearch({ ...search, tags: [...new Set([...search.tags, tag])] })}
              onCategory={(id) =>
                setSearch({ ...search, categories: [...new Set([...search.categories, id])] })
              }
            />
          ))}
        </Box>
      )}
      {isFetchingNextPage && <Loading />}

      <Box
        sx={{
          position: 'fixed',
          right: { xs: 12, sm: 24 },
          bottom: { xs: 12, sm: 24 },
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'flex-end',
          gap: 1.25,
          zIndex: (t) => t.zIndex.speedDial,
          displayPrint: 'none',
        }}
        data-testid="image-actions"
      >
        {selectionMode && (
          <Tooltip title="Clear selection" placement="left">
            <Fab size="small" aria-label="Clear selection" onClick={clearSelection}>
              <Deselect />
            </Fab>
          </Tooltip>
        )}
        {bulkActions && (
          <>
            <Tooltip title="Export" placement="left">
              <Fab
                size="small"
                aria-label="Export"
                onClick={(e) => setExportAnchor(e.currentTarget)}
              >
                <Download />
              </Fab>
            </Tooltip>
            {canDelete && (
              <Tooltip title="Delete" placement="left">
                <Fab size="small" aria-label="Delete images" onClick={() => setDeleting(true)}>
                  <DeleteOutline />
                </Fab>
              </Tooltip>
            )}
            {canModify && (
              <Tooltip title="Edit" placement="left">
                <Fab size="small" aria-label="Edit images" onClick={() => setEditing(true)}>
                  <Edit />
                </Fab>
              </Tooltip>
            )}
          </>
        )}
        {canCreate && (
          <Fab
            color="primary"
            variant={uploading ? 'extended' : 'circular'}
            aria-label="Upload image"
            aria-busy={uploading}
            onClick={() => !uploading && fileInput.current?.click()}
          >
            {uploading ? (
              <>
                <CircularProgress size={20} sx={{ mr: 1 }} />
                <span data-testid="upload-progress">{progress}%</span>
              </>
            ) : (
              <CloudUpload />
            )}
          </Fab>
        )}
        <input
          ref={fileInput}
          type="file"
          accept="image/*,.heic,.heif"
          hidden
          data-testid="upload-input"
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
      </Box>

      <Menu
        anchorEl={exportAnchor}
        open={!!exportAnchor}
        onClose={() => setExportAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        {selectionMode && (
          <MenuItem onClick={() => void runExport('individual')}>
            Download Individual Images
          </MenuItem>
        )}
        <MenuItem onClick={() => void runExport('zip')}>Download Zipped Images</MenuItem>
        <MenuItem onClick={() => void runExport('csv')}>Download CSV Data</MenuItem>
      </Menu>

      {editedOnce && (
        <Suspense fallback={null}>
          <BulkEditDialog
            open={editing}
            count={count}
            busy={bulkEdit.isPending}
            onApply={(changes) => void applyBulk(changes)}
            onClose={() => setEditing(false)}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleting}
        title="Delete Images"
        message={
          selectionMode ? (
            `Are you sure you want to delete ${selected.size} selected image(s)? This action cannot be undone.`
          ) : (
            <>
              <Typography component="span" sx={{ display: 'block', mb: 1 }}>
                This deletes all {total} image(s) matching the search. This action cannot be undone.
              </Typography>
              Enter "Delete" to delete images.
            </>
          )
        }
        requiredWord={selectionMode ? undefined : DELETE_WORD}
        requiredWordLabel="Type delete"
        confirmLabel="Delete"
        busy={removeSelected.isPending || removeByQuery.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => void confirmDelete()}
      />
    </Box>
  );
}
