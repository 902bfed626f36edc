import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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

describe('QrCode extras', () => {
  it('shows a message and the caption instead of the value', () => {
    render(<QrCode value='{"id":"1"}' caption="Pairing code" message="Scan this code." />);
    expect(screen.getByTestId('qr-message')).toHaveTextContent('Scan this code.');
    expect(screen.getByTestId('qr-value')).toHaveTextContent('Pairing code');
  });

  it('names what the code stands for under it, beside the value', () => {
    render(<QrCode value="cat:123" label="Pallets" />);
    expect(screen.getByTestId('qr-label')).toHaveTextContent('Pallets');
    expect(screen.getByTestId('qr-value')).toHaveTextContent('cat:123');
  });

  it('prints only the code while printing, then the page again', async () => {
    const user = userEvent.setup();
    let during: string | null = null;
    const print = vi.fn(() => {
      during = document.body.getAttribute('data-printing-qr');
    });
    vi.stubGlobal('print', print);
    render(<QrCode value="x" defaultSize={100} />);
    expect(screen.getByTestId('qr-code')).toHaveAttribute('width', '100');
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    expect(during).toBe('');
    window.dispatchEvent(new Event('afterprint'));
    expect(document.body.hasAttribute('data-printing-qr')).toBe(false);
    vi.unstubAllGlobals();
  });
});
