import { describe, expect, it } from 'vitest';
import type { LocationTag } from '../../api/types';
import { formToLocationTag, formatCoordinates, locationTagToForm } from './locationTagForm';

const tag: LocationTag = {
  _id: 't'.repeat(24),
  name: 'Aisle 4 Bay 2',
  tag: 'E2801160600002',
  zone: null,
  map: '',
  xycoordinates: [4, 2.5],
  site: 's'.repeat(24),
};

describe('location tag form', () => {
  it('maps no zone to the empty choice and back to null', () => {
    const form = locationTagToForm(tag, 'other');
    expect(form).toMatchObject({ zone: '', x: '4', y: '2.5', site: tag.site });
    expect(formToLocationTag(form)).toMatchObject({ zone: null, xycoordinates: [4, 2.5] });
    expect(formToLocationTag({ ...form, zone: 'z1' }).zone).toBe('z1');
  });

  it('sends the tag trimmed and upper-cased', () => {
    const form = locationTagToForm(undefined, 'site1');
    expect(form.site).toBe('site1');
    expect(formToLocationTag({ ...form, name: 'A', tag: ' e280ab ' }).tag).toBe('E280AB');
  });

  it('shows coordinates as x, y', () => {
    expect(formatCoordinates([4, 2.5])).toBe('4, 2.5');
    expect(formatCoordinates([])).toBe('');
  });
});
