import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderWithProviders } from '../../test/render';
import { FormTextField } from './form-fields';
import { RecordFormDialog } from './record-form-dialog';
import { useRecordDialog } from './use-record-form';

interface Values {
  name: string;
  note: string;
}
interface Row {
  id: number;
  name: string;
  note: string;
}

const schema = z.object({ name: z.string().min(2), note: z.string() });

/** A dialog written the easy way: its converter is a new function on every render. */
function Dialog({ record, save }: { record?: Row; save: (values: Values) => Promise<Values> }) {
  const dialog = useRecordDialog<Values, Row, Values>({
    schema,
    defaults: { name: '', note: '' },
    record,
    toForm: (r) => ({ name: r.name, note: r.note }),
    save,
    saved: 'saved',
    onClose: () => {},
  });
  return (
    <RecordFormDialog
      dialog={dialog}
      ids={{ title: 't', form: 'f', submit: 'save' }}
      onClose={() => {}}
      title="Edit"
      maxWidth="xs"
      editing
    >
      <FormTextField name="name" label="Name" testId="name" />
      <FormTextField name="note" label="Note" testId="note" />
    </RecordFormDialog>
  );
}

/** The dialog over a record that the test can replace (as a refetch would). */
function Host({ save }: { save: (values: Values) => Promise<Values> }) {
  const [record, setRecord] = useState<Row>({ id: 1, name: 'Clientes VIP', note: 'old' });
  return (
    <>
      <button type="button" onClick={() => setRecord({ id: 1, name: 'Renamed elsewhere', note: 'new' })}>
        refetch
      </button>
      <Dialog record={record} save={save} />
    </>
  );
}

const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;

describe('useRecordDialog', () => {
  it('keeps what is typed and saves it, even with a converter that changes on every render', async () => {
    const user = userEvent.setup();
    const save = vi.fn(async (values: Values) => values);
    renderWithProviders(<Host save={save} />);
    await waitFor(() => expect(input('name').value).toBe('Clientes VIP'));
    await user.clear(input('name'));
    await user.type(input('name'), 'Clientes Ouro');
    expect(input('name').value).toBe('Clientes Ouro');
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ name: 'Clientes Ouro', note: 'old' }));
  });

  it('takes a changed record into the untouched fields and keeps the edited ones', async () => {
    const user = userEvent.setup();
    const save = vi.fn(async (values: Values) => values);
    renderWithProviders(<Host save={save} />);
    await waitFor(() => expect(input('name').value).toBe('Clientes VIP'));
    await user.clear(input('name'));
    await user.type(input('name'), 'Mine');
    await user.click(screen.getByText('refetch'));
    await waitFor(() => expect(input('note').value).toBe('new'));
    expect(input('name').value).toBe('Mine');
  });
});
