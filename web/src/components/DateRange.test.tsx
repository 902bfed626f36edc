import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs, { type Dayjs } from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/utils';
import { DateRange } from './DateRange';

describe('DateRange', () => {
  it('applies the quick ranges', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn<(range: { start: Dayjs; end: Dayjs }) => void>();
    const today = dayjs();
    renderAt(<DateRange value={{ start: today, end: today }} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Last 7 Days' }));
    const range = onChange.mock.calls[0][0];
    expect(range.start.format('YYYY-MM-DD')).toBe(today.subtract(6, 'day').format('YYYY-MM-DD'));
    expect(range.end.format('YYYY-MM-DD')).toBe(today.format('YYYY-MM-DD'));
    await user.click(screen.getByRole('button', { name: 'Last 30 Days' }));
    expect(onChange.mock.calls[1][0].start.format('YYYY-MM-DD')).toBe(
      today.subtract(29, 'day').format('YYYY-MM-DD'),
    );
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(onChange.mock.calls[2][0].start.format('HH:mm')).toBe('00:00');
  });
});
