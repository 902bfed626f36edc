import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test/utils';
import { ApiError } from '../api/client';
import type { DetailFormProps, TabDef } from './DetailForm';
// The form itself (DetailForm shows it once its chunk has loaded).
import DetailForm from './DetailFormChunk';
import { requiredMessage, ruleMessage, validationMessage } from './formRules';

interface Thing {
  name: string;
  size: string | number | null;
  kinds: string[];
  note: string;
}

const tabs: TabDef<Thing>[] = [
  {
    label: 'Basic',
    fields: [
      { name: 'name', label: 'Name', required: true },
      {
        name: 'size',
        label: 'Size',
        kind: 'number',
        validate: (v) => v === '' || v === null || Number(v) >= 0 || 'must not be negative',
      },
    ],
  },
  {
    label: 'More',
    fields: [
      {
        name: 'kinds',
        label: 'Kinds',
        kind: 'multiselect',
        required: true,
        options: [
          { value: 'a', label: 'Alpha' },
          { value: 'b', label: 'Beta' },
        ],
      },
      { name: 'note', label: 'Note' },
    ],
  },
];

function renderForm(props: Partial<DetailFormProps<Thing>> = {}, route = '/things/new') {
  const onSave = vi.fn((v: Thing) => Promise.resolve(v));
  const utils = renderAt(
    <DetailForm<Thing>
      name="thing"
      title="Thing"
      id={route.split('/').at(-1) ?? ''}
      tabs={tabs}
      initialValues={{ name: '', size: '', kinds: [], note: '' }}
      onSave={onSave}
      parentPath="/things"
      canModify
      {...props}
    />,
    { path: '/things/:id', route },
  );
  return { ...utils, onSave };
}

describe('validation messages', () => {
  it('builds the spec texts', () => {
    expect(requiredMessage('Name', 'Basic')).toBe('Name in the Basic tab is a required field.');
    expect(ruleMessage('Size', 'Basic', 'must not be negative')).toBe(
      'Size in the Basic tab: must not be negative',
    );
    expect(validationMessage('Name', 'Basic', { type: 'required' })).toBe(
      'Name in the Basic tab is a required field.',
    );
  });
});

describe('DetailForm', () => {
  it('names the first missing required field and its tab', async () => {
    const user = userEvent.setup();
    const { onSave } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Name in the Basic tab is a required field.'),
    ).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('opens the tab of a failing field and shows the inline select message', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.type(screen.getByLabelText(/Name/), 'Crate');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Kinds in the More tab is a required field.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'More' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Please select an item.')).toBeInTheDocument();
  });

  it('shows a custom rule failure with its field and tab', async () => {
    const user = userEvent.setup();
    renderForm({ initialValues: { name: 'Crate', size: '-2', kinds: ['a'], note: '' } });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Size in the Basic tab: must not be negative'),
    ).toBeInTheDocument();
  });

  it('uses an overall message when asked', async () => {
    const user = userEvent.setup();
    renderForm({ invalidMessage: 'Please fill out all required fields' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please fill out all required fields')).toBeInTheDocument();
  });

  it('saves numbers as floats, says Saved and returns to the parent', async () => {
    const user = userEvent.setup();
    const { onSave } = renderForm({
      initialValues: { name: 'Crate', size: '2.5', kinds: ['a'], note: '' },
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0][0]).toEqual({ name: 'Crate', size: 2.5, kinds: ['a'], note: '' });
    expect(await screen.findByText('Saved thing')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/things$/);
  });

  it('stays on the form with save-and-stay', async () => {
    const user = userEvent.setup();
    renderForm(
      {
        saveAndStay: true,
        initialValues: { name: 'Crate', size: '', kinds: ['a'], note: '' },
      },
      '/things/t1',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved thing')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/things/t1');
  });

  it('reports a failed save with the server message', async () => {
    const user = userEvent.setup();
    renderForm({
      initialValues: { name: 'Crate', size: '', kinds: ['a'], note: '' },
      onSave: () => Promise.reject(new ApiError(409, 'conflict', 'Name already used')),
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save failed: Name already used')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeInTheDocument();
  });

  it('deletes an existing record after confirmation', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn(() => Promise.resolve());
    renderForm(
      {
        canDelete: true,
        onDelete,
        initialValues: { name: 'Crate', size: '', kinds: ['a'], note: '' },
      },
      '/things/t1',
    );
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(
      screen.getByText('Are you sure you want to delete this thing? This action cannot be undone.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "I'm Sure" }));
    await waitFor(() => expect(onDelete).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/things$/));
  });

  it('reports a failed delete', async () => {
    const user = userEvent.setup();
    renderForm(
      {
        canDelete: true,
        onDelete: () => Promise.reject(new ApiError(400, 'in use', 'Site has zones')),
      },
      '/things/t1',
    );
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: "I'm Sure" }));
    expect(await screen.findByText('Delete failed: Site has zones')).toBeInTheDocument();
  });

  it('offers no Delete for a new record', () => {
    renderForm({ canDelete: true, onDelete: () => Promise.resolve() });
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('is read-only without the modify right', () => {
    renderForm(
      {
        canModify: false,
        canDelete: false,
        initialValues: { name: 'Crate', size: '', kinds: [], note: '' },
      },
      '/things/t1',
    );
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Name/)).toHaveAttribute('readonly');
  });
});
