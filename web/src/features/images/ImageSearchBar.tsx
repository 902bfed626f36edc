import FilterList from '@mui/icons-material/FilterList';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { SearchField } from '../../app/shell/SearchField';
import { DateRange } from '../../components/DateRange';
import { useCategoryOptions } from '../categories/queries';
import { CategoryPicker, TagPicker } from './LabelPickers';
import { useUploaders } from './queries';
import {
  activeFilterCount,
  EMPTY_SEARCH,
  IMAGE_QUICK_RANGES,
  searchFromParams,
  withImageSearch,
  type ImageSearch,
} from './search';

/**
 * The images route's search bar: the text search plus tags, categories, the empty flags,
 * uploader, partial, a date range (7 days, 31 days, current month) and "or".
 */
export default function ImageSearchBar() {
  const [params, setParams] = useSearchParams();
  const search = useMemo(() => searchFromParams(params), [params]);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const categories = useCategoryOptions();
  const uploaders = useUploaders();
  const names = new Map((categories.data ?? []).map((c) => [c.id, c.name]));
  const set = (changes: Partial<ImageSearch>) =>
    setParams((prev) => withImageSearch(prev, { ...searchFromParams(prev), ...changes }));
  const count = activeFilterCount(search);

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, maxWidth: 560 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <SearchField />
      </Box>
      <Tooltip title="Search filters">
        <IconButton
          // The badge's count is visible text, so the name carries it too (WCAG 2.5.3).
          aria-label={count ? `Search filters, ${count} active` : 'Search filters'}
          onClick={(e) => setAnchor(e.currentTarget)}
          color={count ? 'primary' : 'default'}
        >
          <Badge badgeContent={count} color="primary">
            <FilterList />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 'min(560px, calc(100vw - 16px))', p: 2 } } }}
      >
        <Stack spacing={2} data-testid="image-search-filters">
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            Search Images
          </Typography>
          <TagPicker
            label="Tags"
            size="small"
            value={search.tags}
            onChange={(tags) => set({ tags })}
          />
          <CategoryPicker
            label="Categories"
            size="small"
            value={search.categories.map((id) => ({ id, name: names.get(id) ?? id }))}
            onChange={(next) => set({ categories: next.map((c) => c.id) })}
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2 }}>
            <FormControlLabel
              control={
                <Checkbox
                  checked={search.tagsEmpty}
                  onChange={(e) => set({ tagsEmpty: e.target.checked })}
                />
              }
              label="No Tags"
            />
            <FormControlLabel
              control={
                <Checkbox
                  checked={search.categoriesEmpty}
                  onChange={(e) => set({ categoriesEmpty: e.target.checked })}
                />
              }
              label="No Categories"
            />
            <FormControlLabel
              control={
                <Checkbox
                  checked={search.partial}
                  onChange={(e) => set({ partial: e.target.checked })}
                />
              }
              label="Partial Tags"
            />
            <FormControlLabel
              control={
                <Checkbox checked={search.or} onChange={(e) => set({ or: e.target.checked })} />
              }
              label="Match Any (Or)"
            />
          </Box>
          <TextField
            select
            size="small"
            label="Uploader"
            value={search.uploader}
            onChange={(e) => set({ uploader: e.target.value })}
          >
            <MenuItem value="">
              <em>Anyone</em>
            </MenuItem>
            {(uploaders.data ?? []).map((u) => (
              <MenuItem key={u.id} value={u.id}>
                {u.username}
              </MenuItem>
            ))}
          </TextField>
          <DateRange
            value={{
              start: search.dateStart ? dayjs(search.dateStart) : null,
              end: search.dateEnd ? dayjs(search.dateEnd) : null,
            }}
            onChange={(range) =>
              set({ dateStart: range.start.toISOString(), dateEnd: range.end.toISOString() })
            }
            shortcuts={IMAGE_QUICK_RANGES}
          />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1 }}>
            <Button onClick={() => set({ ...EMPTY_SEARCH, search: search.search })}>
              Clear Filters
            </Button>
            <Button variant="contained" onClick={() => setAnchor(null)}>
              Done
            </Button>
          </Box>
        </Stack>
      </Popover>
    </Box>
  );
}
