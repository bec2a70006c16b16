import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Message, QuickMessage, Ticket } from '@zapdesk/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubAudioRecording } from '../../test/fake-recorder';
import { createSessionUser } from '../../test/fixtures';
import { withMatchMedia } from '../../test/media-query';
import { renderWithProviders } from '../../test/render';
import { Composer, quickReplyOptions, restoredText, shortcutMarker } from './composer';
import { json, makeMessage, makeTicket, mockFetch } from './test-helpers';

const me = createSessionUser({ id: 5 });

const quick = (id: number, shortcode: string, message: string): QuickMessage => ({
  id,
  shortcode,
  message,
  mediaPath: null,
  mediaName: null,
  isMedia: false,
  geral: true,
  userId: null,
});

function renderComposer(
  ticket: Ticket = makeTicket({ id: 1, status: 'open' }),
  options: { replyTo?: Message | null; routes?: Record<string, unknown> } = {},
) {
  const api = mockFetch({
    'POST /api/messages/\\d+': [makeMessage({ id: 900, fromMe: true })],
    'GET /api/quick-messages/list': [
      quick(1, 'hello', 'Olá! Seja muito bem-vindo ao nosso atendimento, em que posso ajudar?'),
      quick(2, 'bye', 'Tchau'),
    ],
    ...options.routes,
  });
  const onCancelReply = vi.fn();
  const result = renderWithProviders(
    <Composer ticket={ticket} replyTo={options.replyTo ?? null} onCancelReply={onCancelReply} />,
    { user: me },
  );
  const input = screen.getByTestId('composer-input') as HTMLTextAreaElement;
  return { ...result, ...api, input, onCancelReply };
}

/** The sends (POST /api/messages/:ticketId), without the typing notices (`.../presence`). */
const sent = (calls: ReturnType<typeof mockFetch>['calls']) =>
  calls('POST', '/api/messages/').filter((c) => !c.url.pathname.endsWith('/presence'));

describe('Composer', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('ignores empty and whitespace-only text', async () => {
    const { input, calls } = renderComposer();
    await userEvent.type(input, '   {Enter}');
    await userEvent.click(screen.getByTestId('composer-send'));
    expect(sent(calls)).toHaveLength(0);
  });

  it('sends on Enter (trimmed, sign flag on by default); Shift+Enter breaks the line', async () => {
    const { input, calls } = renderComposer();
    await userEvent.type(input, '  hi there{Shift>}{Enter}{/Shift}second');
    expect(input.value).toBe('  hi there\nsecond');
    expect(sent(calls)).toHaveLength(0);
    await userEvent.type(input, '{Enter}');
    await waitFor(() => expect(sent(calls)).toHaveLength(1));
    expect(sent(calls)[0]?.url.pathname).toBe('/api/messages/1');
    expect(sent(calls)[0]?.body).toEqual({ body: 'hi there\nsecond', signMessage: true });
    await waitFor(() => expect(input.value).toBe(''));
  });

  it('sends signMessage false when the stored sign option is off', async () => {
    localStorage.setItem('signOption', 'false');
    const { input, calls } = renderComposer();
    await userEvent.type(input, 'hello{Enter}');
    await waitFor(() => expect(sent(calls)).toHaveLength(1));
    expect(sent(calls)[0]?.body).toEqual({ body: 'hello', signMessage: false });
  });

  it('shows the sign switch on medium-wide screens and stores it', () =>
    withMatchMedia(
      () => true,
      async () => {
        const { input, calls } = renderComposer();
        const sign = screen.getByTestId('composer-sign') as HTMLInputElement;
        expect(sign.checked).toBe(true);
        await userEvent.click(sign);
        expect(localStorage.getItem('signOption')).toBe('false');
        await userEvent.type(input, 'x{Enter}');
        await waitFor(() => expect(sent(calls)).toHaveLength(1));
        expect(sent(calls)[0]?.body).toEqual({ body: 'x', signMessage: false });
      },
    ));

  it('hides the sign switch on narrow screens', () => {
    renderComposer();
    expect(screen.queryByTestId('composer-sign')).toBeNull();
  });

  it.each(['pending', 'closed'] as const)('is disabled when the ticket is %s', (status) => {
    const { input } = renderComposer(makeTicket({ status }));
    expect(input.disabled).toBe(true);
    expect((screen.getByTestId('composer-send') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('composer-record') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('composer-attach') as HTMLInputElement).disabled).toBe(true);
  });

  it("suggests quick replies on a leading '/', labels cut to 35 characters, and fills the text", async () => {
    const { input, calls } = renderComposer();
    await userEvent.type(input, '/');
    expect(screen.queryByTestId('quick-reply-option')).toBeNull();
    await userEvent.type(input, 'hel');
    const options = await screen.findAllByTestId('quick-reply-option');
    expect(options.map((o) => o.textContent)).toEqual(['/hello - Olá! Seja muito bem-vindo ']);
    await userEvent.click(options[0] as HTMLElement);
    expect(input.value).toBe('Olá! Seja muito bem-vindo ao nosso atendimento, em que posso ajudar?');
    expect(screen.queryByTestId('quick-reply-option')).toBeNull();
    expect(sent(calls)).toHaveLength(0);
  });

  it('builds quick reply options', () => {
    const list = [
      quick(1, 'abc', 'x'.repeat(40)),
      quick(2, 'xyz', 'short'),
      quick(3, 'emoji', `${'y'.repeat(25)}😀😀`),
    ];
    expect(quickReplyOptions('/', list)).toEqual([]);
    expect(quickReplyOptions('abc', list)).toEqual([]);
    expect(quickReplyOptions('/ab', list)).toEqual([
      { id: 1, label: `/abc - ${'x'.repeat(28)}`, value: 'x'.repeat(40) },
    ]);
    expect(quickReplyOptions('/ab', list)[0]?.label).toHaveLength(35);
    expect(quickReplyOptions('/emo', list).map((o) => o.label)).toEqual([`/emoji - ${'y'.repeat(25)}😀`]);
    expect(quickReplyOptions('/XY', list).map((o) => o.label)).toEqual(['/xyz - short']);
  });

  it('replaces the earlier file selection with a new one and sends multipart', async () => {
    const { input, calls } = renderComposer();
    const attach = screen.getByTestId('composer-attach') as HTMLInputElement;
    const a = new File(['a'], 'a.png', { type: 'image/png' });
    const b = new File(['b'], 'b.pdf', { type: 'application/pdf' });
    const c = new File(['c'], 'c.txt', { type: 'text/plain' });
    await userEvent.upload(attach, [a, b]);
    expect(screen.getAllByTestId('composer-file').map((el) => el.textContent)).toEqual(['a.png', 'b.pdf']);
    await userEvent.upload(attach, [c]);
    expect(screen.getAllByTestId('composer-file').map((el) => el.textContent)).toEqual(['c.txt']);
    await userEvent.type(input, 'caption');
    await userEvent.click(screen.getByTestId('composer-send'));
    await waitFor(() => expect(sent(calls)).toHaveLength(1));
    const form = sent(calls)[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.getAll('medias') as File[]).map((f) => f.name)).toEqual(['c.txt']);
    expect(form.get('body')).toBe('caption');
    expect(form.get('signMessage')).toBe('true');
    await waitFor(() => expect(screen.queryByTestId('composer-file')).toBeNull());
  });

  it('takes pasted files as the selection', () => {
    const { input } = renderComposer();
    const file = new File(['p'], 'pasted.png', { type: 'image/png' });
    fireEvent.paste(input, { clipboardData: { files: [file], getData: () => '' } });
    expect(screen.getAllByTestId('composer-file').map((el) => el.textContent)).toEqual(['pasted.png']);
  });

  it('sends the quoted message in reply mode and can cancel it', async () => {
    const replyTo = makeMessage({ id: 42, body: 'question?' });
    const { input, calls, onCancelReply } = renderComposer(undefined, { replyTo });
    expect(screen.getByTestId('composer-reply').textContent).toContain('question?');
    await userEvent.type(input, 'answer{Enter}');
    await waitFor(() => expect(sent(calls)).toHaveLength(1));
    expect(sent(calls)[0]?.body).toEqual({ body: 'answer', signMessage: true, quotedMsg: { id: 42 } });
    await waitFor(() => expect(onCancelReply).toHaveBeenCalled());
    await userEvent.click(screen.getByTestId('composer-reply-cancel'));
    expect(onCancelReply).toHaveBeenCalledTimes(2);
  });

  it('shows the translated ERR_SENDING_WAPP_MSG toast', async () => {
    const { input } = renderComposer(undefined, {
      routes: {
        'POST /api/messages/\\d+': () => json(400, { error: 'ERR_SENDING_WAPP_MSG', messageIds: [1] }),
      },
    });
    await userEvent.type(input, 'hello{Enter}');
    expect(
      await screen.findByText('Error sending the WhatsApp message. Check the connections page.'),
    ).toBeTruthy();
    await waitFor(() => expect(input.value).toBe(''));
  });

  it('stays enabled and focused while a send is in flight; quick sends go out one at a time, in order', async () => {
    const pending: ((r: Response) => void)[] = [];
    const { input, calls } = renderComposer(undefined, {
      routes: {
        'POST /api/messages/\\d+': () => new Promise<Response>((resolve) => pending.push(resolve)),
      },
    });
    await userEvent.type(input, 'Bom dia!{Enter}');
    await waitFor(() => expect(sent(calls)).toHaveLength(1));
    expect(input.value).toBe('');
    expect(input.disabled).toBe(false);
    expect(document.activeElement).toBe(input);
    await userEvent.type(input, 'Tudo bem?{Enter}');
    expect(input.value).toBe('');
    // The second send waits for the first to be answered.
    expect(sent(calls)).toHaveLength(1);
    pending.shift()?.(json(201, [makeMessage({ id: 901, fromMe: true })]));
    await waitFor(() => expect(sent(calls)).toHaveLength(2));
    pending.shift()?.(json(201, [makeMessage({ id: 902, fromMe: true })]));
    expect(sent(calls).map((c) => (c.body as { body: string }).body)).toEqual(['Bom dia!', 'Tudo bem?']);
    expect(document.activeElement).toBe(input);
  });

  it('puts the text of a refused send back, with the error toast, and keeps what was typed since', async () => {
    let answer: (r: Response) => void = () => {};
    const { input } = renderComposer(undefined, {
      routes: {
        'POST /api/messages/\\d+': () => new Promise<Response>((resolve) => (answer = resolve)),
      },
    });
    await userEvent.type(input, 'Bom dia!{Enter}');
    expect(input.value).toBe('');
    await userEvent.type(input, 'Como');
    answer(json(403, { error: 'ERR_NO_PERMISSION' }));
    await waitFor(() => expect(input.value).toBe('Bom dia!\nComo'));
    expect(await screen.findByText('You do not have permission to access this resource.')).toBeTruthy();
    expect(document.activeElement).toBe(input);
  });

  it('restores a failed text before the text typed since', () => {
    expect(restoredText('Bom dia!', '')).toBe('Bom dia!');
    expect(restoredText('Bom dia!', '  ')).toBe('Bom dia!');
    expect(restoredText('Bom dia!', 'Como')).toBe('Bom dia!\nComo');
    expect(restoredText('', 'Como')).toBe('Como');
  });

  it('wraps the selection in WhatsApp markers on Ctrl+B, Ctrl+I and Ctrl+Shift+X, keeping it selected', async () => {
    const { input, calls } = renderComposer();
    await userEvent.type(input, 'say hello now');
    input.setSelectionRange(4, 9);
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(input.value).toBe('say *hello* now');
    expect([input.selectionStart, input.selectionEnd]).toEqual([5, 10]);
    await userEvent.keyboard('{Control>}i{/Control}');
    expect(input.value).toBe('say *_hello_* now');
    await userEvent.keyboard('{Control>}{Shift>}X{/Shift}{/Control}');
    expect(input.value).toBe('say *_~hello~_* now');
    expect(sent(calls)).toHaveLength(0);
  });

  it('maps only the formatting shortcuts', () => {
    const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>>) =>
      shortcutMarker({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(key('b', { ctrlKey: true })).toBe('*');
    expect(key('B', { metaKey: true })).toBe('*');
    expect(key('i', { ctrlKey: true })).toBe('_');
    expect(key('X', { ctrlKey: true, shiftKey: true })).toBe('~');
    expect(key('b', {})).toBeNull();
    expect(key('x', { ctrlKey: true })).toBeNull();
    expect(key('b', { ctrlKey: true, altKey: true })).toBeNull();
    expect(key('c', { ctrlKey: true })).toBeNull();
  });

  describe('audio recording', () => {
    const stopTrack = vi.fn();
    const stubMedia = (bytes: number) => stubAudioRecording('audio/webm', bytes, stopTrack);

    it('records with a timer, disables the text box, and sends the recording as a file', async () => {
      const { input, calls } = renderComposer();
      stubMedia(20_000);
      await userEvent.click(screen.getByTestId('composer-record'));
      expect(await screen.findByTestId('composer-record-timer')).toBeTruthy();
      expect(screen.getByTestId('composer-record-timer').textContent).toBe('00:00');
      expect(screen.queryByTestId('composer-input')).toBeNull();
      await userEvent.click(screen.getByTestId('composer-record-send'));
      await waitFor(() => expect(sent(calls)).toHaveLength(1));
      const form = sent(calls)[0]?.body as FormData;
      const [file] = form.getAll('medias') as File[];
      expect(file?.name).toMatch(/^audio-\d+\.(mp3|webm)$/);
      expect(file?.size).toBeGreaterThanOrEqual(10_000);
      expect(stopTrack).toHaveBeenCalled();
      expect(input).toBeTruthy();
    });

    it('drops recordings under 10,000 bytes with a message', async () => {
      const { calls } = renderComposer();
      stubMedia(500);
      await userEvent.click(screen.getByTestId('composer-record'));
      await userEvent.click(await screen.findByTestId('composer-record-send'));
      expect(await screen.findByText('Audio too short: the recording was discarded.')).toBeTruthy();
      expect(sent(calls)).toHaveLength(0);
      expect(await screen.findByTestId('composer-input')).toBeTruthy();
    });

    it('cancels a recording without sending', async () => {
      const { calls } = renderComposer();
      stubMedia(20_000);
      await userEvent.click(screen.getByTestId('composer-record'));
      await userEvent.click(await screen.findByTestId('composer-record-cancel'));
      expect(await screen.findByTestId('composer-input')).toBeTruthy();
      expect(sent(calls)).toHaveLength(0);
    });
  });
});
