/** Business constants from the product spec (section 9). */

export const ALL_SITES_ID = '000000000000000000000000';
export const ALL_SITES_NAME = 'All Sites';
export const UNKNOWN_THING_ID = '777777777777777777777777';

export const PAGE_SIZES = [10, 25, 100] as const;
export const DEFAULT_PAGE_SIZE = 25;

export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MIN_CHARS = 3;

export const SNACKBAR_MS = 6000;

export const DEFAULT_LABELS = {
  item: 'Items',
  worker: 'Workers',
  itemName: 'Name',
  itemSerial: 'Serial',
} as const;

export const QR_SIZES = [
  { label: 'Small', size: 100 },
  { label: 'Medium', size: 300 },
  { label: 'Large', size: 500 },
  { label: 'X-Large', size: 700 },
] as const;
export const DEFAULT_QR_SIZE = 300;

export const PRODUCT_NAME = 'TagTrack';
