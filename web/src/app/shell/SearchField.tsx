import ClearIcon from '@mui/icons-material/Clear';
import SearchIcon from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { nextSearch } from '../../components/listQuery';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '../../constants';

function withSearch(prev: URLSearchParams, search: string): URLSearchParams {
  const next = new URLSearchParams(prev);
  if (search) next.set('search', search);
  else next.delete('search');
  // A new search starts from the first page.
  next.delete('page');
  return next;
}

/**
 * The top-bar search. Lists read the applied text from the URL param 'search'; typing is
 * debounced and 1 or 2 characters are ignored.
 */
export function SearchField() {
  const [params, setParams] = useSearchParams();
  const applied = params.get('search') ?? '';
  const [text, setText] = useState(applied);

  useEffect(() => {
    const timer = window.setTimeout(() => {
      const next = nextSearch(text, applied, SEARCH_MIN_CHARS);
      if (next !== applied) setParams((prev) => withSearch(prev, next), { replace: true });
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, applied, setParams]);

  const clear = () => {
    setText('');
    if (applied) setParams((prev) => withSearch(prev, ''), { replace: true });
  };

  return (
    <TextField
      value={text}
      onChange={(e) => setText(e.target.value)}
      placeholder="Search"
      fullWidth
      slotProps={{
        htmlInput: { 'aria-label': 'Search', 'data-testid': 'search-input' },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
          endAdornment: text ? (
            <InputAdornment position="end">
              <IconButton size="small" aria-label="Clear search" onClick={clear} edge="end">
                <ClearIcon fontSize="small" />
              </IconButton>
            </InputAdornment>
          ) : undefined,
          sx: { bgcolor: 'background.default', borderRadius: 2 },
        },
      }}
      sx={{ maxWidth: 480 }}
    />
  );
}
