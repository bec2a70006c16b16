/**
 * The message composer (core section 2 "Message composer", sections 5 and 9): a text box of at most 5
 * rows (Enter sends, Shift+Enter breaks the line, blank text is ignored), emoji picker, multi-file
 * upload and paste (a new choice replaces the earlier one), audio recording, the sign switch (default
 * on, kept in local storage 'signOption', shown on medium-wide screens), quick replies on a leading '/'
 * and the reply mode. Disabled unless the ticket is open and while recording; the text box stays
 * enabled and focused while a send is in flight (the text is cleared at once, sends go out in order,
 * and a refused send puts its text back). Ctrl+B, Ctrl+I and Ctrl+Shift+X wrap the selection in
 * WhatsApp's bold, italic and strike markers.
 *
 * A 'Responder / Nota' switch turns the box into an internal note (docs/inbox.md "Notes and
 * mentions"): Enter saves the note instead of sending, the note shows in the conversation and never
 * reaches the customer, and '@' offers the users who can see the ticket. While replying, typing
 * shows the customer the agent is typing (at most once per few seconds).
 */
import AttachFileIcon from '@mui/icons-material/AttachFile';
import InsertEmoticonIcon from '@mui/icons-material/InsertEmoticon';
import MicIcon from '@mui/icons-material/Mic';
import SendIcon from '@mui/icons-material/Send';
import {
  Box,
  CircularProgress,
  FormControlLabel,
  Popover,
  Stack,
  Switch,
  TextField,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { COMPOSER_MAX_ROWS, type Message, STORAGE_KEYS, type Ticket } from '@zapdesk/shared';
import { type ClipboardEvent, type KeyboardEvent, lazy, Suspense, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../../lib/notify';
import { FileChips, RecordingBar, ToolButton, useVoiceNote } from './composer-attachments';
import { isPlainEnter, moveHighlight, useFormatShortcuts } from './composer-keys';
import { type ComposerMode, ModeChips, PickerList, ReplyBanner } from './composer-pickers';
import { type QuickReplyOption, quickReplyOptions, readSignOption, restoredText } from './composer-text';
import { insertMention, type Mentionable, mentionAt, mentionedIds, mentionOptions } from './mentions';
import {
  useAddNote,
  useMentionable,
  useQuickMessages,
  useSendMessage,
  useTypingNotice,
} from './use-ticket-view';

export { shortcutMarker } from './composer-keys';
export { type QuickReplyOption, quickReplyOptions, readSignOption, restoredText } from './composer-text';

const EmojiPicker = lazy(() => import('./emoji-picker'));

interface ComposerProps {
  ticket: Ticket;
  replyTo: Message | null;
  onCancelReply: () => void;
}

export function Composer({ ticket, replyTo, onCancelReply }: ComposerProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const showSign = useMediaQuery(theme.breakpoints.up('md'));
  const [text, setText] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [sign, setSign] = useState(readSignOption);
  const [emojiAnchor, setEmojiAnchor] = useState<HTMLElement | null>(null);
  const [highlight, setHighlight] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLTextAreaElement>(null);
  const shortcuts = useFormatShortcuts(textInput, text, setText);
  const send = useSendMessage(ticket.id, ticket.contact.id);
  const quick = useQuickMessages(text.startsWith('/'));
  const options = useMemo(() => quickReplyOptions(text, quick.data), [text, quick.data]);

  const [mode, setMode] = useState<ComposerMode>('reply');
  const noteMode = mode === 'note';
  const addNote = useAddNote(ticket.id, ticket.contact.id);
  const typingNotice = useTypingNotice(ticket.id);
  const mentionable = useMentionable(ticket.id, noteMode);
  const [chosen, setChosen] = useState<Mentionable[]>([]);
  const [caret, setCaret] = useState(0);
  const mention = noteMode ? mentionAt(text, caret) : null;
  const mentionList = useMemo(
    () => (mention ? mentionOptions(mention.query, mentionable.data) : []),
    [mention?.query, mentionable.data, mention],
  );

  const reset = () => {
    setText('');
    setFiles([]);
    onCancelReply();
  };

  // The box is cleared at once, so what is typed or attached while a send is in flight is kept.
  // A refused request puts its text back before whatever was typed since, and its files when none
  // were chosen since; a WhatsApp failure does not: that message stays in the list (ack -1) with its
  // retry button. `mutateAsync` settles per call, so each of several queued sends restores its own.
  const doSend = (body: string, list: File[]) => {
    const quotedMsgId = replyTo?.id ?? null;
    reset();
    send.mutateAsync({ body, files: list, signMessage: sign, quotedMsgId }).catch((err: unknown) => {
      notifyError(err);
      if ((err as { code?: string }).code === 'ERR_SENDING_WAPP_MSG') return;
      setText((current) => restoredText(body, current));
      setFiles((current) => (current.length ? current : list));
    });
  };
  const voice = useVoiceNote((file) => doSend('', [file]));
  const { recorder, encoding } = voice;

  const closed = ticket.status !== 'open';
  // A send in flight does not disable anything: the agent keeps typing and may send again (the
  // sends are queued in order by the mutation's scope). Notes may be written on any ticket.
  const disabled = (closed && !noteMode) || encoding || recorder.recording;

  const saveNote = () => {
    const note = text.trim();
    if (note.length < 2 || addNote.isPending) return;
    addNote.mutate(
      { note, mentionedUserIds: mentionedIds(note, chosen) },
      {
        onSuccess: () => {
          setText('');
          setChosen([]);
        },
        onError: (err) => notifyError(err),
      },
    );
  };

  const chooseMention = (user: Mentionable) => {
    if (!mention) return;
    const next = insertMention(text, mention.start, caret, user.name);
    setText(next.text);
    setCaret(next.caret);
    setChosen((list) => (list.some((u) => u.id === user.id) ? list : [...list, user]));
    setHighlight(0);
    shortcuts.keepSelection(next.caret, next.caret);
    textInput.current?.focus();
  };

  const submit = () => {
    if (noteMode) {
      saveNote();
      textInput.current?.focus();
      return;
    }
    if (disabled) return;
    const body = text.trim();
    if (files.length === 0 && body === '') return;
    doSend(body, files);
    textInput.current?.focus();
  };

  const choose = (option: QuickReplyOption) => {
    setText(option.value);
    setHighlight(0);
    textInput.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (shortcuts.onShortcut(event)) return;
    if (mentionList.length > 0) {
      if (moveHighlight(event, mentionList.length, setHighlight)) return;
      if (isPlainEnter(event)) {
        event.preventDefault();
        chooseMention(mentionList[Math.min(highlight, mentionList.length - 1)]!);
        return;
      }
    }
    if (options.length > 0 && !noteMode) {
      if (moveHighlight(event, options.length, setHighlight)) return;
      if (event.key === 'Escape') {
        setText('');
        return;
      }
    }
    if (!isPlainEnter(event)) return;
    event.preventDefault();
    const option = noteMode ? undefined : options[Math.min(highlight, options.length - 1)];
    if (option) choose(option);
    else submit();
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    const pasted = Array.from(event.clipboardData?.files ?? []);
    if (pasted.length === 0) return;
    event.preventDefault();
    setFiles(pasted);
  };

  const insertEmoji = (emoji: string) => {
    const el = textInput.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText((current) => current.slice(0, start) + emoji + current.slice(end));
  };

  return (
    <Box
      data-testid="composer"
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: 1, py: 1 }}
    >
      {replyTo && <ReplyBanner replyTo={replyTo} onCancel={onCancelReply} />}
      {files.length > 0 && <FileChips files={files} disabled={disabled} onChange={setFiles} />}
      <ModeChips
        mode={mode}
        onChange={(value) => {
          setMode(value);
          setHighlight(0);
          textInput.current?.focus();
        }}
      />
      {mentionList.length > 0 && (
        <PickerList
          testId="mention-options"
          label={t('ticketView.mentionUsers')}
          items={mentionList.map((user) => ({
            key: user.id,
            testId: `mention-option-${user.id}`,
            label: `@${user.name}`,
          }))}
          highlight={highlight}
          onChoose={(index) => chooseMention(mentionList[index]!)}
        />
      )}
      {options.length > 0 && !disabled && !noteMode && (
        <PickerList
          testId="quick-replies"
          items={options.map((option) => ({
            key: option.id,
            testId: 'quick-reply-option',
            label: option.label,
          }))}
          highlight={highlight}
          onChoose={(index) => choose(options[index]!)}
        />
      )}
      <Stack direction="row" alignItems="flex-end" spacing={0.5}>
        {recorder.recording || encoding ? (
          <RecordingBar voice={voice} />
        ) : (
          <>
            {!noteMode && (
              <ToolButton
                label={t('ticketView.emoji')}
                testId="composer-emoji"
                disabled={disabled}
                onClick={(e) => setEmojiAnchor(e.currentTarget)}
              >
                <InsertEmoticonIcon />
              </ToolButton>
            )}
            {!noteMode && (
              <ToolButton
                label={t('ticketView.attach')}
                testId="composer-attach-button"
                disabled={disabled}
                onClick={() => fileInput.current?.click()}
              >
                <AttachFileIcon />
              </ToolButton>
            )}
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              disabled={disabled}
              data-testid="composer-attach"
              onChange={(e) => {
                setFiles(Array.from(e.target.files ?? []));
                e.target.value = '';
              }}
            />
            {showSign && !noteMode && (
              <FormControlLabel
                sx={{ mx: 0.5 }}
                label={t('ticketView.sign')}
                control={
                  <Switch
                    size="small"
                    checked={sign}
                    disabled={disabled}
                    slotProps={{ input: { 'data-testid': 'composer-sign' } as object }}
                    onChange={(e) => {
                      setSign(e.target.checked);
                      localStorage.setItem(STORAGE_KEYS.signMessage, JSON.stringify(e.target.checked));
                    }}
                  />
                }
              />
            )}
            <TextField
              fullWidth
              multiline
              maxRows={COMPOSER_MAX_ROWS}
              size="small"
              value={text}
              disabled={disabled}
              inputRef={textInput}
              placeholder={
                noteMode
                  ? t('ticketView.notePlaceholderInline')
                  : closed
                    ? t('ticketView.composerClosed')
                    : t('ticketView.composerPlaceholder')
              }
              onChange={(e) => {
                setText(e.target.value);
                setCaret(e.target.selectionStart ?? e.target.value.length);
                setHighlight(0);
                if (!noteMode && e.target.value.trim()) typingNotice.typing();
              }}
              onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? text.length)}
              sx={
                noteMode
                  ? (th) => ({
                      '& .MuiInputBase-root': { bgcolor: th.palette.mode === 'dark' ? '#3a3417' : '#fff6c7' },
                    })
                  : undefined
              }
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              slotProps={{
                htmlInput: {
                  'data-testid': 'composer-input',
                  'aria-label': noteMode ? t('ticketView.internalNote') : t('ticketView.message'),
                },
              }}
            />
            {!noteMode && (
              <ToolButton
                label={t('ticketView.record')}
                testId="composer-record"
                disabled={disabled}
                onClick={() => void voice.start()}
              >
                <MicIcon />
              </ToolButton>
            )}
            <ToolButton
              color="primary"
              label={noteMode ? t('ticketView.saveNote') : t('ticketView.send')}
              testId="composer-send"
              disabled={disabled}
              onClick={submit}
            >
              {(noteMode ? addNote.isPending : send.isPending) ? (
                <CircularProgress size={22} />
              ) : (
                <SendIcon />
              )}
            </ToolButton>
          </>
        )}
      </Stack>
      <Popover
        open={emojiAnchor !== null}
        anchorEl={emojiAnchor}
        onClose={() => setEmojiAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
        transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Suspense fallback={<CircularProgress sx={{ m: 2 }} />}>
          <EmojiPicker onSelect={insertEmoji} />
        </Suspense>
      </Popover>
    </Box>
  );
}
