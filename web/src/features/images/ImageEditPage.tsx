import ArrowBack from '@mui/icons-material/ArrowBack';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Download from '@mui/icons-material/Download';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import Save from '@mui/icons-material/Save';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Collapse from '@mui/material/Collapse';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { useBlocker, useNavigate, useParams, useSearchParams } from 'react-router';
import { failureText } from '../../api/client';
import type { ImageMeta } from '../../api/types';
import { ConfirmDialog, deleteConfirmMessage } from '../../components/ConfirmDialog';
import { DetailForm, type DetailFormParts } from '../../components/DetailForm';
import type { FieldDef } from '../../components/FormField';
import { formatBytes, formatImageDate } from '../../components/format';
import { LoadGate } from '../../components/LoadGate';
import { useSnackbar } from '../../components/Snackbar';
import { usePermissions } from '../access/queries';
import { useSiteNavigate } from '../access/SiteContext';
import { CategoryPicker, TagPicker, type CategoryChoice } from './LabelPickers';
import { locationOf, mapsUrl } from './location';
import {
  imageUrl,
  rememberUploadFields,
  useDeleteImages,
  useImage,
  useImageNeighbours,
  useSaveImage,
  useUploader,
} from './queries';
import { RETURN_PARAM, returnPathOf, searchFromParams, searchParams } from './search';

/** Below this width the metadata drawer slides over the image instead of sitting beside it. */
const DRAWER_BREAKPOINT = '(min-width:800px)';
const DRAWER_WIDTH = 360;
/** Formats a browser shows by itself; others (HEIC) are shown through their thumbnail. */
const BROWSER_FORMATS = ['jpg', 'png', 'webp'];

interface Labels {
  tags: string[];
  categories: CategoryChoice[];
  annotation: string;
}

function labelsOf(image: ImageMeta): Labels {
  return {
    tags: image.tags,
    categories: image.categories.map((c) => ({ id: c.id, name: c.name ?? '' })),
    annotation: image.annotation,
  };
}

function sameLabels(a: Labels, b: Labels): boolean {
  return (
    a.annotation === b.annotation &&
    a.tags.join('\u001f') === b.tags.join('\u001f') &&
    a.categories.map((c) => c.id).join(',') === b.categories.map((c) => c.id).join(',')
  );
}

function ReadOnly({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
        {value || '\u00a0'}
      </Typography>
    </Box>
  );
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

const FIELDS: FieldDef<Labels>[] = [
  {
    name: 'categories',
    label: 'Categories',
    kind: 'custom',
    render: ({ value, onChange, readOnly }) => (
      <CategoryPicker
        label="Categories"
        value={value as CategoryChoice[]}
        readOnly={readOnly}
        onChange={onChange}
      />
    ),
  },
  {
    name: 'tags',
    label: 'Tags',
    kind: 'custom',
    render: ({ value, onChange, readOnly }) => (
      <TagPicker label="Tags" value={value as string[]} readOnly={readOnly} onChange={onChange} />
    ),
  },
  {
    name: 'annotation',
    label: 'Comment',
    kind: 'custom',
    render: ({ value, onChange, readOnly }) => (
      <TextField
        label="Comment"
        multiline
        minRows={2}
        value={value}
        slotProps={{ input: { readOnly } }}
        onChange={(e) => onChange(e.target.value)}
      />
    ),
  },
];

type Direction = 'previous' | 'next';
/** A step asked for while the page cannot take it yet: kept by the page, across images. */
type QueuedStep = RefObject<Direction | null>;

/** The image's labels are the form; the viewer around them is drawn by ImageView. */
function ImageEditor({ image, queuedStepRef }: { image: ImageMeta; queuedStepRef: QueuedStep }) {
  const perms = usePermissions();
  const [params] = useSearchParams();
  const fromUpload = params.get('fromUpload') === 'true';
  const [initial, setInitial] = useState<Labels>(() => labelsOf(image));
  const save = useSaveImage();

  const onSave = async (labels: Labels): Promise<ImageMeta> => {
    const saved = await save.mutateAsync({
      id: image.id,
      body: {
        annotation: labels.annotation,
        tags: labels.tags,
        categories: labels.categories.map((c) => ({ id: c.id, name: c.name })),
        location: image.location,
      },
    });
    const now = labelsOf(saved);
    setInitial(now);
    if (fromUpload) {
      rememberUploadFields({ tags: now.tags, categories: now.categories.map((c) => c.id) });
    }
    return saved;
  };

  return (
    <DetailForm<Labels, ImageMeta>
      name="image"
      title={image.name || 'Image'}
      id={image.id}
      tabs={[{ label: 'Image', fields: FIELDS }]}
      initialValues={initial}
      onSave={onSave}
      saveAndStay
      savedValues={labelsOf}
      savedMessage="Saved"
      formatError={(err) => failureText('Failed to save', err)}
      canModify={perms.can('images', 'modify')}
      layout={(parts) => (
        <ImageView image={image} initial={initial} parts={parts} queuedStepRef={queuedStepRef} />
      )}
    />
  );
}

function ImageView({
  image,
  initial,
  parts,
  queuedStepRef,
}: {
  image: ImageMeta;
  initial: Labels;
  parts: DetailFormParts<Labels>;
  queuedStepRef: QueuedStep;
}) {
  const theme = useTheme();
  const wide = useMediaQuery(DRAWER_BREAKPOINT);
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const perms = usePermissions();
  const snackbar = useSnackbar();
  const navigate = useSiteNavigate();
  const [params] = useSearchParams();
  const search = useMemo(() => searchFromParams(params), [params]);
  // Opened from a thing's Photo tab: Exit goes back there, also after stepping.
  const returnPath = returnPathOf(params);
  const listQuery = useMemo(() => {
    const query = searchParams(search);
    if (returnPath) query.set(RETURN_PARAM, returnPath);
    return query.toString();
  }, [search, returnPath]);
  const withList = (path: string) => (listQuery ? `${path}?${listQuery}` : path);
  const plainNavigate = useNavigate();
  const exit = (options?: { replace: boolean }) => {
    if (returnPath) void plainNavigate(returnPath, options);
    else void navigate(withList('/images'), options);
  };

  const dirty = !sameLabels(parts.values, initial);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [more, setMore] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = useDeleteImages();
  const uploader = useUploader(image.uploader);
  const canModify = !parts.readOnly;
  const canDelete = perms.can('images', 'delete');

  // Stepping: the images either side in the gallery's order for the same search, from the
  // server, so it works from any image however it was opened.
  const neighbours = useImageNeighbours(image.id, search);
  const previous = neighbours.data?.previous ?? undefined;
  const next = neighbours.data?.next ?? undefined;
  const loaded = neighbours.isSuccess;
  // Until the page shows the image a step leads to, it still shows this one and its
  // neighbours: a second step then waits for the next image, instead of going to the same
  // one again. So does a key pressed before the neighbours are known.
  const stepping = useRef(false);

  // Leaving with unsaved changes asks first: in the console, and through the browser.
  const deleted = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !deleted.current && dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers prompt only when returnValue is set.
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const step = useCallback(
    (direction: Direction) => {
      if (!loaded || stepping.current) {
        queuedStepRef.current = direction;
        return;
      }
      const target = direction === 'previous' ? previous : next;
      if (!target) return;
      stepping.current = true;
      void navigate(withList(`/images/${target}`));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- withList is rebuilt every render from listQuery
    [navigate, listQuery, loaded, previous, next, queuedStepRef],
  );
  // A step held back by the unsaved-changes question is not on its way any more.
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    stepping.current = false;
    queuedStepRef.current = null;
  }, [blocker.state, queuedStepRef]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey || e.ctrlKey || e.metaKey) return;
      // Not while a dialog, menu or drawer is open over the image.
      const modals = Array.from(document.querySelectorAll('.MuiModal-root'));
      if (modals.some((m) => !m.classList.contains('MuiModal-hidden'))) return;
      const direction = e.key === 'ArrowLeft' ? 'previous' : e.key === 'ArrowRight' ? 'next' : null;
      if (direction) step(direction);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step]);
  useEffect(() => {
    const direction = queuedStepRef.current;
    if (!direction || !loaded) return;
    queuedStepRef.current = null;
    step(direction);
  }, [loaded, step, queuedStepRef]);

  const doDelete = async () => {
    try {
      await remove.mutateAsync([image.id]);
      setDeleting(false);
      deleted.current = true;
      exit({ replace: true });
    } catch (err) {
      setDeleting(false);
      snackbar.error(failureText('Error deleting images', err));
    }
  };

  const location = locationOf(image);
  const photo = image.cloud_photos[0];
  const format = photo?.format ?? 'jpg';
  const showOriginal = !phone && BROWSER_FORMATS.includes(format);

  const details = (
    <Stack spacing={2} sx={{ p: 2 }} data-testid="image-details">
      <ReadOnly label="Time Taken" value={formatImageDate(image.timestamp)} />
      <ReadOnly
        label="Uploaded By"
        value={uploader.isError ? 'unavailable' : (uploader.data?.username ?? '')}
      />
      <ReadOnly label="Upload Date" value={formatImageDate(image.timeCreated)} />
      {location && (
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField
            size="small"
            label="Latitude"
            value={location[1]}
            slotProps={{ input: { readOnly: true } }}
            sx={{ width: 140 }}
          />
          <TextField
            size="small"
            label="Longitude"
            value={location[0]}
            slotProps={{ input: { readOnly: true } }}
            sx={{ width: 140 }}
          />
          <Link href={mapsUrl(location)} target="_blank" rel="noopener noreferrer">
            Open in Maps
          </Link>
        </Box>
      )}
      {parts.field('categories')}
      {parts.field('tags')}
      {parts.field('annotation')}
      <Box>
        <Button
          onClick={() => setMore((m) => !m)}
          endIcon={more ? <ExpandLess /> : <ExpandMore />}
          aria-expanded={more}
        >
          More Information
        </Button>
        <Collapse in={more}>
          <Stack spacing={1.5} sx={{ pt: 1 }}>
            <ReadOnly label="Size" value={formatBytes(photo?.bytes ?? 0)} />
            <ReadOnly label="Resolution" value={photo ? `${photo.size.X} x ${photo.size.Y}` : ''} />
            <ReadOnly label="Format" value={format.toUpperCase()} />
            <ReadOnly label="Device" value={image.exif_data.device} />
          </Stack>
        </Collapse>
      </Box>
    </Stack>
  );

  const actions = (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <Button startIcon={<ArrowBack />} onClick={() => exit()}>
        Exit
      </Button>
      <Box sx={{ flex: 1 }} />
      {!wide && (
        <Button startIcon={<InfoOutlined />} onClick={() => setDrawerOpen(true)}>
          Details
        </Button>
      )}
      <Button
        startIcon={<Download />}
        component="a"
        href={imageUrl(image.id, 'original', true)}
        download={`${image.id}.${format}`}
      >
        Download
      </Button>
      {canDelete && (
        <Button color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
          Delete
        </Button>
      )}
      {canModify && (
        <Button
          variant="contained"
          startIcon={<Save />}
          disabled={parts.busy}
          onClick={() => void parts.save()}
        >
          Save
        </Button>
      )}
    </Box>
  );

  return (
    <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="h5" component="h1" noWrap sx={{ mb: 1 }}>
          {image.name || 'Image'}
        </Typography>
        {actions}
        <Box
          sx={{
            position: 'relative',
            mt: 1.5,
            bgcolor: 'grey.900',
            borderRadius: 1,
            display: 'flex',
            justifyContent: 'center',
            alignItems: 'center',
            minHeight: { xs: 240, sm: 420 },
          }}
        >
          <Box
            component="img"
            src={imageUrl(image.id, showOriginal ? 'original' : 'thumb')}
            alt={image.name || image.id}
            data-testid="image-large"
            sx={{ maxWidth: '100%', maxHeight: 'calc(100vh - 220px)', display: 'block' }}
          />
          <IconButton
            aria-label="Previous image"
            disabled={!previous}
            onClick={() => step('previous')}
            sx={{
              position: 'absolute',
              left: 8,
              bgcolor: 'rgba(255,255,255,0.85)',
              '&:hover': { bgcolor: '#fff' },
              '&.Mui-disabled': { bgcolor: 'rgba(255,255,255,0.3)' },
            }}
          >
            <ChevronLeft />
          </IconButton>
          <IconButton
            aria-label="Next image"
            disabled={!next}
            onClick={() => step('next')}
            sx={{
              position: 'absolute',
              right: 8,
              bgcolor: 'rgba(255,255,255,0.85)',
              '&:hover': { bgcolor: '#fff' },
              '&.Mui-disabled': { bgcolor: 'rgba(255,255,255,0.3)' },
            }}
          >
            <ChevronRight />
          </IconButton>
        </Box>
      </Box>
      {wide ? (
        <Paper variant="outlined" sx={{ width: DRAWER_WIDTH, flexShrink: 0 }}>
          {details}
        </Paper>
      ) : (
        <Drawer
          anchor="right"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          slotProps={{ paper: { sx: { width: `min(${DRAWER_WIDTH}px, 92vw)` } } }}
        >
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, p: 1, pb: 0 }}>
            <Button onClick={() => setDrawerOpen(false)}>Close</Button>
            {canModify && (
              <Button
                variant="contained"
                startIcon={<Save />}
                disabled={parts.busy}
                onClick={() => void parts.save()}
              >
                Save
              </Button>
            )}
          </Box>
          {details}
        </Drawer>
      )}

      <Dialog open={blocker.state === 'blocked'} onClose={() => blocker.reset?.()}>
        <DialogTitle>Unsaved Changes Exist</DialogTitle>
        <DialogContent>
          <DialogContentText>
            The tags, categories or comment of this image have changed. Save them before leaving?
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => blocker.proceed?.()}>Discard</Button>
          <Button
            variant="contained"
            onClick={() =>
              void parts.save().then((ok) => (ok ? blocker.proceed?.() : blocker.reset?.()))
            }
          >
            Save
          </Button>
        </DialogActions>
      </Dialog>
      <ConfirmDialog
        open={deleting}
        title="Confirm Delete"
        message={deleteConfirmMessage('image')}
        busy={remove.isPending}
        onCancel={() => setDeleting(false)}
        onConfirm={() => void doDelete()}
      />
    </Box>
  );
}

export default function ImageEditPage() {
  const { id = '' } = useParams();
  const query = useImage(id);
  const queuedStepRef = useRef<Direction | null>(null);
  return (
    <LoadGate query={query} name="image">
      {(image) => <ImageEditor key={image.id} image={image} queuedStepRef={queuedStepRef} />}
    </LoadGate>
  );
}
