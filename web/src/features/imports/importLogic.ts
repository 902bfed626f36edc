/** Import Assets rules the screen follows (spec sections 4, 5 and 8). */
import { errorText } from '../../api/client';
import type { AssetField, BatchRowResult, HeaderAssetField } from '../../api/types';

export const ASSET_FIELDS: readonly AssetField[] = [
  'name',
  'description',
  'serial',
  'tags',
  'tags1',
  'tags2',
  'categories',
  'labels',
];

export const FIELD_LABELS: Record<AssetField, string> = {
  name: 'Name',
  description: 'Description',
  serial: 'Serial',
  tags: 'Tags',
  tags1: 'Tags 1',
  tags2: 'Tags 2',
  categories: 'Categories',
  labels: 'Labels',
};

/** Rows a request carries (the server's limit), and requests in flight: one batch is
 * written while the next one travels, without crowding the server. */
const BATCH_ROWS = 500;
const BATCHES_IN_FLIGHT = 2;

export const NO_MAPPING = 'Please map headers to asset fields.';
export const ZONE_INLINE = 'Please select a zone.';
export const ZONE_REQUIRED = 'Please select a zone to import assets to.';
export const ONLY_XLSX =
  'Only Excel workbooks (.xlsx) can be imported: save the file as .xlsx and choose it again.';

type RowStatus =
  'waiting' | 'uploading' | 'complete' | 'complete duplicate' | 'duplicate detected' | 'error';

export interface RowState {
  status: RowStatus;
  /** The server's text for an error. */
  reason?: string;
}

export function statusTooltip(state: RowState): string {
  switch (state.status) {
    case 'waiting':
      return 'Waiting';
    case 'uploading':
      return 'Uploading';
    case 'complete':
      return 'Complete';
    case 'complete duplicate':
      return 'Duplicate tag detected, inserted missing information.';
    case 'duplicate detected':
      return 'Duplicate tag detected, attempting to update existing item.';
    case 'error':
      return `Error: ${state.reason ?? ''}`;
  }
}

export const uploadedText = (done: number, total: number) => `${done} of ${total} items uploaded`;

export const isXlsxName = (name: string) => name.toLowerCase().endsWith('.xlsx');

/** The mapping as the screen holds it (asset field to header) in the saved form. */
export function mappingList(byField: Partial<Record<AssetField, string>>): HeaderAssetField[] {
  return ASSET_FIELDS.filter((f) => byField[f]).map((f) => ({
    header: byField[f] as string,
    assetField: f,
  }));
}

/** A saved mapping, keeping only the headers this file has. */
export function mappingFor(
  saved: readonly HeaderAssetField[],
  headers: readonly string[],
): Partial<Record<AssetField, string>> {
  const present = new Set(headers);
  const byField: Partial<Record<AssetField, string>> = {};
  const used = new Set<string>();
  for (const { header, assetField } of saved) {
    if (present.has(header) && !used.has(header) && !byField[assetField]) {
      byField[assetField] = header;
      used.add(header);
    }
  }
  return byField;
}

const plain = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The mapping with the fields still unmapped given to headers named like them ('Name',
 * 'serial', 'TAGS 1'), unless another field has the header already.
 */
export function withNamedHeaders(
  byField: Partial<Record<AssetField, string>>,
  headers: readonly string[],
): Partial<Record<AssetField, string>> {
  const out = { ...byField };
  const used = new Set(Object.values(out));
  for (const field of ASSET_FIELDS) {
    if (out[field]) continue;
    const names = [plain(field), plain(FIELD_LABELS[field])];
    const header = headers.find((h) => !used.has(h) && names.includes(plain(h)));
    if (header) {
      out[field] = header;
      used.add(header);
    }
  }
  return out;
}

/** Rows the server refused. */
export const failedText = (count: number) => `${count} failed`;

/** Header Row choices: a row's number and the start of what it says. */
export function rowChoiceText(row: number, cells: readonly string[]): string {
  const text = cells.filter(Boolean).join(', ');
  return `Row ${row}: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`;
}

/** Headers a field may take: its own and those no other field uses (each header once). */
export function headersFor(
  field: AssetField,
  byField: Partial<Record<AssetField, string>>,
  headers: readonly string[],
): string[] {
  const taken = new Set(ASSET_FIELDS.filter((f) => f !== field).map((f) => byField[f]));
  return headers.filter((h) => !taken.has(h));
}

export interface ImportRun {
  total: number;
  /** Send these rows (indexes into the sheet); with updateDuplicate the existing items are
   * filled in. Resolves to one result per row, in order. */
  send: (indexes: number[], updateDuplicate: boolean) => Promise<BatchRowResult[]>;
  onStatus: (index: number, state: RowState) => void;
  onCreatedCategories?: (names: string[]) => void;
  /** Stops taking new rows (leaving the screen). */
  stopped?: () => boolean;
  batchRows?: number;
  inFlight?: number;
}

/** Sends every row in batches, a few batches at a time. A row refused as a duplicate is
 * marked 'duplicate detected' and sent again (with the batch's other duplicates) to fill in
 * the existing item; a batch refused whole puts its reason on each of its rows. Resolves to
 * the rows uploaded. */
export async function runImport({
  total,
  send,
  onStatus,
  onCreatedCategories,
  stopped = () => false,
  batchRows = BATCH_ROWS,
  inFlight = BATCHES_IN_FLIGHT,
}: ImportRun): Promise<number> {
  let next = 0;
  let uploaded = 0;
  // Sends rows and applies the answers; returns the rows refused as duplicates.
  const attempt = async (indexes: number[], updateDuplicate: boolean) => {
    let results: BatchRowResult[];
    try {
      results = await send(indexes, updateDuplicate);
    } catch (err) {
      indexes.forEach((index) => onStatus(index, { status: 'error', reason: errorText(err) }));
      return [];
    }
    const duplicates: number[] = [];
    results.forEach((result, k) => {
      const index = indexes[k];
      if (result.status === 'complete' || result.status === 'complete duplicate') {
        uploaded += 1;
        onStatus(index, { status: result.status });
        const created = result.createdCategories ?? [];
        if (created.length > 0) onCreatedCategories?.(created);
      } else if (result.status === 'duplicate' && !updateDuplicate) {
        onStatus(index, { status: 'duplicate detected' });
        duplicates.push(index);
      } else {
        onStatus(index, { status: 'error', reason: result.reason ?? '' });
      }
    });
    return duplicates;
  };
  const worker = async () => {
    while (next < total && !stopped()) {
      const indexes = Array.from({ length: Math.min(batchRows, total - next) }, (_, k) => next + k);
      next += indexes.length;
      indexes.forEach((index) => onStatus(index, { status: 'uploading' }));
      const duplicates = await attempt(indexes, false);
      if (duplicates.length > 0) await attempt(duplicates, true);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, worker));
  return uploaded;
}
