import CheckCircle from '@mui/icons-material/CheckCircle';
import ChatBubbleOutline from '@mui/icons-material/ChatBubbleOutlineOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { ImageMeta } from '../../api/types';
import { formatImageDate } from '../../components/format';
import { locationOf, mapsUrl } from './location';
import { imageUrl } from './queries';

export interface ImageCardProps {
  image: ImageMeta;
  selected: boolean;
  selectionMode: boolean;
  /** Phones: a list of wide cards, thumbnail on the left. */
  compact: boolean;
  onOpen: () => void;
  onToggle: () => void;
  onTag: (tag: string) => void;
  onCategory: (id: string) => void;
}

/** One gallery card: check, maps and comment buttons, category and tag chips, date. */
export function ImageCard({
  image,
  selected,
  selectionMode,
  compact,
  onOpen,
  onToggle,
  onTag,
  onCategory,
}: ImageCardProps) {
  const location = locationOf(image);
  // In selection mode every click on the card (chips too) toggles its selection.
  const chipClick = (search: () => void) => () => (selectionMode ? onToggle() : search());
  const buttons = (
    <Box sx={{ display: 'flex', gap: 0.25, alignItems: 'center' }}>
      <IconButton
        size="small"
        aria-label={selected ? 'Deselect image' : 'Select image'}
        aria-pressed={selected}
        onClick={onToggle}
        color={selected ? 'primary' : 'default'}
      >
        {selected ? <CheckCircle /> : <RadioButtonUnchecked />}
      </IconButton>
      {location && (
        <Tooltip title="Show on map">
          <IconButton
            size="small"
            aria-label="Show on map"
            component="a"
            href={mapsUrl(location)}
            target="_blank"
            rel="noopener noreferrer"
          >
            <PlaceOutlined />
          </IconButton>
        </Tooltip>
      )}
      {image.annotation && (
        <Tooltip title={image.annotation}>
          <IconButton size="small" aria-label={`Comment: ${image.annotation}`} onClick={onOpen}>
            <ChatBubbleOutline />
          </IconButton>
        </Tooltip>
      )}
    </Box>
  );
  const chips = (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, minWidth: 0 }}>
      {image.categories.map((c) => (
        <Chip
          key={c.id}
          label={c.name}
          size="small"
          color="primary"
          onClick={chipClick(() => onCategory(c.id))}
          data-testid="category-chip"
          sx={{ maxWidth: '100%' }}
        />
      ))}
      {image.tags.map((t) => (
        <Chip
          key={t}
          label={t}
          size="small"
          color="success"
          onClick={chipClick(() => onTag(t))}
          data-testid="tag-chip"
          sx={{ maxWidth: '100%' }}
        />
      ))}
    </Box>
  );
  const thumbnail = (
    <Box
      component="button"
      type="button"
      onClick={selectionMode ? onToggle : onOpen}
      aria-label={`Open image ${image.name || image.id}`}
      sx={{
        p: 0,
        border: 0,
        cursor: 'pointer',
        bgcolor: 'grey.200',
        display: 'block',
        width: compact ? 112 : '100%',
        flexShrink: 0,
        aspectRatio: compact ? '1 / 1' : '4 / 3',
        overflow: 'hidden',
      }}
    >
      <Box
        component="img"
        src={imageUrl(image.id, compact ? 'mini' : 'thumb')}
        alt={image.name || image.id}
        loading="lazy"
        sx={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
      />
    </Box>
  );
  const date = (
    <Tooltip title="Taken (uploaded, when the photo has no date): the gallery's order">
      <Typography variant="caption" color="text.secondary" data-testid="image-date">
        {formatImageDate(image.timestamp)}
      </Typography>
    </Tooltip>
  );
  return (
    <Card
      variant="outlined"
      data-testid="image-card"
      data-id={image.id}
      data-selected={selected}
      sx={{
        display: 'flex',
        flexDirection: compact ? 'row' : 'column',
        borderColor: selected ? 'primary.main' : 'divider',
        borderWidth: selected ? 2 : 1,
        minWidth: 0,
      }}
    >
      {thumbnail}
      <Box sx={{ p: 1, display: 'flex', flexDirection: 'column', gap: 0.75, minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          {date}
          {buttons}
        </Box>
        {chips}
      </Box>
    </Card>
  );
}
