import { describe, expect, it } from 'vitest';
import { labelsFrom, mergeLabels } from './labels';

describe('labels', () => {
  const org = {
    item: 'Assets',
    worker: 'Workers',
    itemName: 'Name',
    itemSerial: 'Serial',
    hideWorkers: false,
  };

  it("prefers the site's labels, else the organization's", () => {
    expect(mergeLabels(org, { itemNameLabel: 'Asset Name', itemSerialLabel: ' ' })).toEqual({
      ...org,
      itemName: 'Asset Name',
    });
    expect(mergeLabels(org, undefined)).toEqual(org);
    expect(mergeLabels(org, { hideWorkers: true }).hideWorkers).toBe(true);
  });
});

describe('labelsFrom', () => {
  it('uses the defaults for empty labels', () => {
    expect(labelsFrom({ itemLabel: ' ', workerLabel: 'Staff' })).toEqual({
      item: 'Items',
      worker: 'Staff',
      itemName: 'Name',
      itemSerial: 'Serial',
      hideWorkers: false,
    });
  });
});
