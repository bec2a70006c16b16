import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { type MediaAttachment, MediaAttachmentField, NO_MEDIA_CHANGE } from './media-attachment-field';

function Harness({ stored, accepts }: { stored?: string; accepts?: (file: File) => boolean }) {
  const [value, setValue] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  return (
    <>
      <MediaAttachmentField
        label="Anexar"
        storedName={stored}
        value={value}
        onChange={setValue}
        accepts={accepts}
        testId="thing"
      />
      <output data-testid="state">{`${value.file?.name ?? '-'}|${value.removeMedia}`}</output>
    </>
  );
}

const choose = (name: string) =>
  fireEvent.change(screen.getByTestId('thing-file'), { target: { files: [new File(['x'], name)] } });

describe('MediaAttachmentField', () => {
  it('shows the stored media, replaces it with a chosen file, and removes it', () => {
    renderWithProviders(<Harness stored="old.png" />);
    expect(screen.getByTestId('thing-media').textContent).toBe('old.png');
    choose('new.png');
    expect(screen.getByTestId('thing-media').textContent).toBe('new.png');
    expect(screen.getByTestId('state').textContent).toBe('new.png|false');
    fireEvent.click(screen.getByTestId('thing-media').querySelector('svg')!);
    expect(screen.queryByTestId('thing-media')).toBeNull();
    expect(screen.getByTestId('state').textContent).toBe('-|true');
  });

  it('leaves the value unchanged when the check refuses the file', () => {
    renderWithProviders(<Harness stored="old.png" accepts={(file) => file.name.endsWith('.png')} />);
    choose('page.svg');
    expect(screen.getByTestId('state').textContent).toBe('-|false');
    expect(screen.getByTestId('thing-media').textContent).toBe('old.png');
    choose('ok.png');
    expect(screen.getByTestId('state').textContent).toBe('ok.png|false');
  });
});
