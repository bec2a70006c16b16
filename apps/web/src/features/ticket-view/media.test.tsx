import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeSession } from '../../lib/storage';
import { parseLocation, parseVCard } from './media';
import { documentLabel, MessageMedia } from './message-media';
import { makeMessage } from './test-helpers';

describe('documentLabel', () => {
  const t = (key: string, options?: Record<string, string>) =>
    `${key}${options ? JSON.stringify(options) : ''}`;
  it('uses the file name, else the kind from the extension, and a sensible download name', () => {
    expect(documentLabel({ mediaName: 'nota.pdf', mediaUrl: 'ab.pdf' }, t)).toEqual({
      name: 'nota.pdf',
      label: 'ticketView.media.download{"name":"nota.pdf"}',
    });
    expect(documentLabel({ mediaName: null, mediaUrl: '/api/public/ab12.DOCX' }, t)).toEqual({
      name: 'ticketview.media.document.docx',
      label: 'ticketView.media.downloadType{"type":"DOCX"}',
    });
    expect(documentLabel({ mediaName: null, mediaUrl: null }, t)).toEqual({
      name: 'ticketview.media.document',
      label: 'ticketView.media.downloadDocument',
    });
  });
});

describe('parseLocation', () => {
  it("splits 'image|link|description'", () => {
    expect(
      parseLocation('data:image/png;base64,AAAA|https://maps.google.com/?q=1,2|Av. Paulista, 1000'),
    ).toEqual({
      image: 'data:image/png;base64,AAAA',
      link: 'https://maps.google.com/?q=1,2',
      description: 'Av. Paulista, 1000',
    });
  });

  it('accepts an empty image, a raw base64 image and a bare link', () => {
    expect(parseLocation('|https://maps.example/x|Home')).toEqual({
      image: null,
      link: 'https://maps.example/x',
      description: 'Home',
    });
    expect(parseLocation('QUJD|https://m/x|').image).toBe('data:image/png;base64,QUJD');
    expect(parseLocation('https://maps.example/y')).toEqual({
      image: null,
      link: 'https://maps.example/y',
      description: '',
    });
  });
});

describe('parseVCard', () => {
  it('reads the name (FN) and the number (waid, else the TEL digits)', () => {
    const card = [
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Silva;João;;;',
      'FN:João Silva',
      'item1.TEL;waid=5511988887777:+55 11 98888-7777',
      'item1.X-ABLabel:Celular',
      'END:VCARD',
    ].join('\n');
    expect(parseVCard(card)).toEqual([{ name: 'João Silva', number: '5511988887777' }]);
  });

  it('falls back to N and the TEL value, and reads several cards', () => {
    const cards =
      'BEGIN:VCARD\r\nN:Souza;Ana\r\nTEL;TYPE=CELL:+55 (21) 3333-4444\r\nEND:VCARD\r\n' +
      'BEGIN:VCARD\r\nFN:Bob\r\nEND:VCARD';
    expect(parseVCard(cards)).toEqual([
      { name: 'Ana Souza', number: '+552133334444' },
      { name: 'Bob', number: '' },
    ]);
  });
});

describe('MessageMedia', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const created: string[] = [];
  const revoked: string[] = [];

  beforeEach(() => {
    writeSession('tok-123', 1, 5);
    fetchMock = vi.fn(
      async () =>
        new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'Content-Type': 'image/png' } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    let n = 0;
    URL.createObjectURL = vi.fn(() => {
      const url = `blob:media-${++n}`;
      created.push(url);
      return url;
    });
    URL.revokeObjectURL = vi.fn((url: string) => {
      revoked.push(url);
    });
    created.length = 0;
    revoked.length = 0;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('fetches an image with the bearer token into a blob URL, opens it larger, and revokes it', async () => {
    const message = makeMessage({ id: 1, mediaType: 'image', mediaUrl: '/api/public/photo.png' });
    const { unmount } = render(<MessageMedia message={message} />);
    const img = await screen.findByTestId('message-image-1');
    expect(img.getAttribute('src')).toBe('blob:media-1');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/public/photo.png');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-123');
    await userEvent.click(img);
    expect((await screen.findByTestId('image-dialog')).getAttribute('src')).toBe('blob:media-1');
    unmount();
    expect(revoked).toEqual(['blob:media-1']);
  });

  it('plays audio and video from blob URLs, and a sticker is an image', async () => {
    render(
      <>
        <MessageMedia message={makeMessage({ id: 2, mediaType: 'audio', mediaUrl: '/api/public/a.mp3' })} />
        <MessageMedia message={makeMessage({ id: 3, mediaType: 'video', mediaUrl: '/api/public/v.mp4' })} />
        <MessageMedia
          message={makeMessage({ id: 4, mediaType: 'sticker', mediaUrl: '/api/public/s.webp' })}
        />
      </>,
    );
    const audio = await screen.findByTestId('message-audio-2');
    expect(audio.tagName).toBe('AUDIO');
    expect(audio.getAttribute('src')).toMatch(/^blob:/);
    expect((await screen.findByTestId('message-video-3')).tagName).toBe('VIDEO');
    expect((await screen.findByTestId('message-sticker-4')).tagName).toBe('IMG');
  });

  it('downloads a document with the token only when asked', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    render(
      <MessageMedia
        message={makeMessage({
          id: 5,
          mediaType: 'application',
          mediaUrl: '/api/public/r.pdf',
          mediaName: 'report.pdf',
        })}
      />,
    );
    const button = screen.getByTestId('message-document-5');
    expect(button.textContent).toContain('report.pdf');
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.click(button);
    await waitFor(() => expect(click).toHaveBeenCalled());
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok-123');
    click.mockRestore();
  });

  it('labels a document without a file name by its kind, never by its stored name', () => {
    render(
      <>
        <MessageMedia
          message={makeMessage({ id: 7, mediaType: 'document', mediaUrl: '0123abcd.pdf', mediaName: null })}
        />
        <MessageMedia
          message={makeMessage({ id: 8, mediaType: 'application', mediaUrl: 'f00d', mediaName: '' })}
        />
      </>,
    );
    expect(screen.getByTestId('message-document-7').textContent).toBe('Download PDF document');
    expect(screen.getByTestId('message-document-8').textContent).toBe('Download document');
  });

  it('renders a location with its thumbnail, link and description', () => {
    render(
      <MessageMedia
        message={makeMessage({
          id: 6,
          mediaType: 'locationMessage',
          body: 'data:image/png;base64,AAAA|https://maps.google.com/?q=1,2|Escritório',
        })}
      />,
    );
    const box = screen.getByTestId('message-location-6');
    expect(box.querySelector('img')?.getAttribute('src')).toBe('data:image/png;base64,AAAA');
    expect(screen.getByRole('link').getAttribute('href')).toBe('https://maps.google.com/?q=1,2');
    expect(box.textContent).toContain('Escritório');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('renders a vCard contact with name and number', () => {
    render(
      <MessageMedia
        message={makeMessage({
          id: 7,
          mediaType: 'vcard',
          body: 'BEGIN:VCARD\nFN:João Silva\nTEL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD',
        })}
      />,
    );
    const card = screen.getByTestId('message-vcard-7');
    expect(card.textContent).toContain('João Silva');
    expect(card.textContent).toContain('5511988887777');
  });

  it('renders a call log', () => {
    render(<MessageMedia message={makeMessage({ id: 8, mediaType: 'call_log', body: '' })} />);
    expect(screen.getByTestId('message-call-8').textContent).toContain('Missed voice call');
  });
});
