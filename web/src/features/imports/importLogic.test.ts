import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { BatchRowResult } from '../../api/types';
import {
  failedText,
  headersFor,
  rowChoiceText,
  withNamedHeaders,
  mappingFor,
  mappingList,
  runImport,
  statusTooltip,
  uploadedText,
  type RowState,
} from './importLogic';
import { RowStatuses } from './rowStatus';

const answer = (
  status: BatchRowResult['status'],
  more: Partial<BatchRowResult> = {},
): BatchRowResult => ({ status, thing: '', tags: [], createdCategories: [], reason: '', ...more });

describe('runImport', () => {
  it('sends batches, marks duplicates, fills them in, and reports errors with their reason', async () => {
    const seen: Record<number, RowState['status'][]> = {};
    const created: string[] = [];
    const sent: [number[], boolean][] = [];
    const tips: Record<number, string> = {};
    let inFlight = 0;
    let most = 0;
    const uploaded = await runImport({
      total: 23,
      batchRows: 10,
      inFlight: 2,
      send: async (indexes, updateDuplicate) => {
        sent.push([indexes, updateDuplicate]);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight -= 1;
        if (indexes.includes(20)) throw new ApiError(400, 'zone required', 'Pick a zone');
        return indexes.map((index) => {
          if (index === 3 && !updateDuplicate) {
            return answer('duplicate', { reason: "Tag E1 is a duplicate of another thing's tag" });
          }
          if (index === 3) return answer('complete duplicate');
          if (index === 5) return answer('error', { reason: 'name: too long' });
          return answer('complete', { createdCategories: index === 0 ? ['Tools'] : [] });
        });
      },
      onStatus: (index, state) => {
        (seen[index] ??= []).push(state.status);
        if (state.status === 'error') tips[index] = statusTooltip(state);
      },
      onCreatedCategories: (names) => created.push(...names),
    });
    expect(uploaded).toBe(19);
    expect(most).toBe(2);
    // Two batches of ten, the rest, and the duplicate again to fill in (order varies).
    expect(sent.map(([indexes, again]) => `${indexes.join(',')} ${again}`).sort()).toEqual([
      '0,1,2,3,4,5,6,7,8,9 false',
      '10,11,12,13,14,15,16,17,18,19 false',
      '20,21,22 false',
      '3 true',
    ]);
    expect(seen[3]).toEqual(['uploading', 'duplicate detected', 'complete duplicate']);
    expect(seen[5]).toEqual(['uploading', 'error']);
    expect(seen[7]).toEqual(['uploading', 'complete']);
    // A batch refused whole: each of its rows shows the reason.
    expect(seen[22]).toEqual(['uploading', 'error']);
    expect(tips[5]).toBe('Error: name: too long');
    expect(tips[22]).toBe('Error: Pick a zone');
    expect(created).toEqual(['Tools']);
    expect(uploadedText(uploaded, 23)).toBe('19 of 23 items uploaded');
  });
});

describe('RowStatuses', () => {
  it('wakes only the row that changed and paints the totals later', () => {
    vi.useFakeTimers();
    const store = new RowStatuses(150);
    store.reset(3, { status: 'waiting' });
    const woken: number[] = [];
    store.subscribeRow(0, () => woken.push(0));
    store.subscribeRow(1, () => woken.push(1));
    let painted = 0;
    store.subscribeTotals(() => (painted += 1));
    store.set(1, { status: 'complete' });
    store.set(2, { status: 'error', reason: 'bad' });
    expect(woken).toEqual([1]);
    expect(store.totals()).toEqual({ rows: 3, finished: 0, uploaded: 0, failed: 0 });
    vi.advanceTimersByTime(150);
    expect(painted).toBe(1);
    expect(store.totals()).toEqual({ rows: 3, finished: 2, uploaded: 1, failed: 1 });
    store.set(2, { status: 'complete duplicate' });
    store.paint();
    expect(store.totals()).toEqual({ rows: 3, finished: 2, uploaded: 2, failed: 0 });
    expect(store.get(2)).toEqual({ status: 'complete duplicate' });
    vi.useRealTimers();
  });
});

describe('the header mapping', () => {
  it('uses each header once and keeps only headers the file has', () => {
    const headers = ['Asset', 'EPC', 'Notes'];
    const byField = mappingFor(
      [
        { header: 'Asset', assetField: 'name' },
        { header: 'Gone', assetField: 'serial' },
        { header: 'EPC', assetField: 'tags' },
      ],
      headers,
    );
    expect(byField).toEqual({ name: 'Asset', tags: 'EPC' });
    expect(headersFor('description', byField, headers)).toEqual(['Notes']);
    expect(headersFor('name', byField, headers)).toEqual(['Asset', 'Notes']);
    expect(mappingList(byField)).toEqual([
      { header: 'Asset', assetField: 'name' },
      { header: 'EPC', assetField: 'tags' },
    ]);
  });
});

describe('withNamedHeaders', () => {
  it('maps headers named like the fields, keeping what is mapped already', () => {
    const headers = ['Asset No', 'NAME', 'description ', 'Serial', 'Tags', 'tags 1', 'Tag2'];
    expect(withNamedHeaders({}, headers)).toEqual({
      name: 'NAME',
      description: 'description ',
      serial: 'Serial',
      tags: 'Tags',
      tags1: 'tags 1',
    });
    // A saved choice wins, and its header is not given to another field.
    expect(withNamedHeaders({ name: 'Asset No', serial: 'NAME' }, headers)).toEqual({
      name: 'Asset No',
      serial: 'NAME',
      description: 'description ',
      tags: 'Tags',
      tags1: 'tags 1',
    });
    expect(withNamedHeaders({}, ['Asset', 'EPC'])).toEqual({});
  });
});

describe('texts', () => {
  it('names the failed rows and the header row choices', () => {
    expect(failedText(3)).toBe('3 failed');
    expect(rowChoiceText(2, ['Name', '', 'Serial'])).toBe('Row 2: Name, Serial');
    expect(rowChoiceText(1, ['x'.repeat(80)])).toBe(`Row 1: ${'x'.repeat(59)}…`);
  });
});
