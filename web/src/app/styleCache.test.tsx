import Box from '@mui/material/Box';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppProviders, createQueryClient } from './providers';

function insertedCss(): string {
  return Array.from(document.querySelectorAll('style[data-emotion^="css"]'))
    .map((style) => style.textContent)
    .join('\n');
}

describe('the console’s style cache', () => {
  it('prefixes user-select for Safari and nothing else', () => {
    render(
      <AppProviders client={createQueryClient()}>
        <Box
          sx={{
            display: 'flex',
            userSelect: 'none',
            transition: 'opacity 1s',
            '&::placeholder': { color: 'red' },
          }}
        />
      </AppProviders>,
    );
    const css = insertedCss();
    expect(css).toMatch(
      /\.css-\w+\{display:flex;-webkit-user-select:none;user-select:none;transition:opacity 1s;\}/,
    );
    expect(css).toMatch(/\.css-\w+::placeholder\{color:red;\}/);
    expect(css).not.toMatch(/-webkit-box|-ms-flexbox|-webkit-transition|-moz-placeholder/);
  });
});
