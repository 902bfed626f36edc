import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CappedNotice, cappedText } from './CappedNotice';

describe('CappedNotice', () => {
  it('says how many of how many are shown and how to narrow the list', () => {
    expect(cappedText(10000, 10042, 'zone visits', 'choose a shorter period')).toBe(
      'Showing the newest 10,000 of 10,042 zone visits: choose a shorter period to see the rest.',
    );
  });

  it('shows nothing when every row came', () => {
    const { container } = render(
      <CappedNotice shown={12} total={12} noun="zone visits" narrow="choose a shorter period" />,
    );
    expect(container).toBeEmptyDOMElement();
    render(
      <CappedNotice shown={2} total={3} noun="zone visits" narrow="choose a shorter period" />,
    );
    expect(screen.getByTestId('capped-notice')).toHaveTextContent('newest 2 of 3 zone visits');
  });
});
