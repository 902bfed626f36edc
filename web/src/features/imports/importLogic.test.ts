import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import type { ImportRowResult } from '../../api/types';
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

const ok = (status: ImportRowResult['status'], created: string[] = []): ImportRowResult => ({
  status,
  thing: 'a'.repeat(24),
  tags: [],
  createdCategories: created,
});

describe('runImport', () => {
  it('marks a duplicate, fills it in, and reports errors with the server text', async () => {
    const seen: Record<number, RowState['status'][]> = {};
    const created: string[] = [];
    let inFlight = 0;
    let most = 0;
    const uploaded = await runImport({
      total: 20,
      concurrency: 6,
      send: async (index, updateDuplicate) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 1));
        inFlight -= 1;
        if (index === 3 && !updateDuplicate) {
          throw new ApiError(400, 'duplicate', "Tag E1 is a duplicate of another thing's tag");
        }
        if (index === 3) return ok('complete duplicate');
        if (index === 5) throw new ApiError(400, 'validation', 'name: too long');
        return ok('complete', index === 0 ? ['Tools'] : []);
      },
      onStatus: (index, state) => {
        (seen[index] ??= []).push(state.status);
        if (state.status === 'error') expect(statusTooltip(state)).toBe('Error: name: too long');
      },
      onCreatedCategories: (names) => created.push(...names),
    });
    expect(uploaded).toBe(19);
    expect(most).toBe(6);
    expect(seen[3]).toEqual(['uploading', 'duplicate detected', 'complete duplicate']);
    expect(seen[5]).toEqual(['uploading', 'error']);
    expect(seen[7]).toEqual(['uploading', 'complete']);
    expect(created).toEqual(['Tools']);
    expect(uploadedText(uploaded, 20)).toBe('19 of 20 items uploaded');
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
