import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ImageMeta } from '../../api/types';
import { formatImageDate } from '../../components/format';
import { renderAt } from '../../test/utils';
import { bulkEditMessage } from './BulkEditDialog';
import { ImageCard } from './ImageCard';

const image: ImageMeta = {
  id: 'a'.repeat(24),
  uploader: 'b'.repeat(24),
  timestamp: '2024-06-01T09:30:00Z',
  timeCreated: '2024-06-02T10:00:00Z',
  location: { type: 'Point', coordinates: [4.4792, 51.9225] },
  annotation: 'Seal broken',
  tags: ['dock'],
  categories: [{ id: 'c'.repeat(24), name: 'Damage' }],
  cloud_photos: [{ bytes: 1000, size: { X: 64, Y: 32 }, format: 'jpg' }],
  exif_data: { orientation: 1, device: '', dateTimeOriginal: null },
  name: 'dock.jpg',
};

function renderCard(selectionMode: boolean, changes: Partial<ImageMeta> = {}) {
  const handlers = { onOpen: vi.fn(), onToggle: vi.fn(), onTag: vi.fn(), onCategory: vi.fn() };
  renderAt(
    <ImageCard
      image={{ ...image, ...changes }}
      selected={false}
      selectionMode={selectionMode}
      compact={false}
      {...handlers}
    />,
  );
  return handlers;
}

describe('ImageCard', () => {
  it('searches by a chip outside selection mode', async () => {
    const user = userEvent.setup();
    const h = renderCard(false);
    await user.click(screen.getByText('dock'));
    expect(h.onTag).toHaveBeenCalledWith('dock');
    await user.click(screen.getByText('Damage'));
    expect(h.onCategory).toHaveBeenCalledWith('c'.repeat(24));
    expect(h.onToggle).not.toHaveBeenCalled();
    expect(screen.getByText(formatImageDate(image.timestamp))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Show on map' })).toHaveAttribute(
      'href',
      expect.stringContaining('51.9225,4.4792'),
    );
    expect(screen.getByRole('button', { name: 'Comment: Seal broken' })).toBeInTheDocument();
  });

  it('toggles the selection with chips in selection mode', async () => {
    const user = userEvent.setup();
    const h = renderCard(true);
    await user.click(screen.getByText('dock'));
    await user.click(screen.getByText('Damage'));
    expect(h.onToggle).toHaveBeenCalledTimes(2);
    expect(h.onTag).not.toHaveBeenCalled();
  });

  it('shows the maps and comment buttons only when there is something to show', () => {
    renderCard(false, { annotation: '', location: { type: 'Point', coordinates: [0, 0] } });
    expect(screen.queryByRole('link', { name: 'Show on map' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Comment/ })).toBeNull();
  });

  it('asks before editing several images', () => {
    expect(bulkEditMessage(3)).toBe('Are you sure you want to edit 3 selected image(s)?');
  });
});
