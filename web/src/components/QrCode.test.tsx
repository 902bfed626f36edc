import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { QrCode } from './QrCode';

describe('QrCode', () => {
  it('shows the value at the default size and changes size', async () => {
    const user = userEvent.setup();
    render(<QrCode value="cat:123" />);
    expect(screen.getByTestId('qr-value')).toHaveTextContent('cat:123');
    const svg = screen.getByTestId('qr-code');
    expect(svg).toHaveAttribute('width', '300');
    await user.click(screen.getByRole('combobox', { name: 'Size' }));
    const options = screen.getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Small', 'Medium', 'Large', 'X-Large']);
    await user.click(screen.getByRole('option', { name: 'Large' }));
    expect(screen.getByTestId('qr-code')).toHaveAttribute('width', '500');
  });
});
