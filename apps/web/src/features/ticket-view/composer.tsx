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
import CancelIcon from '@mui/icons-material/Cancel';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import InsertEmoticonIcon from '@mui/icons-material/InsertEmoticon';
import MicIcon from '@mui/icons-material/Mic';
import SendIcon from '@mui/icons-material/Send';
import {
  Box,
  Chip,
  CircularProgress,
  FormControlLabel,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Popover,
  Stack,
  Switch,
  TextField,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import {
  AUDIO_MIN_BYTES,
  COMPOSER_MAX_ROWS,
  type Message,
  QUICK_REPLY_LABEL_LENGTH,
  type QuickMessage,
  STORAGE_KEYS,
  type Ticket,
} from '@zapdesk/shared';
import {
  type ClipboardEvent,
  type KeyboardEvent,
  lazy,
  Suspense,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { notifyError } from '../../lib/notify';
import { wrapSelection } from '../../lib/whatsapp-format';
import { recordingToFile, useAudioRecorder } from './audio-recorder';
import { insertMention, type Mentionable, mentionAt, mentionedIds, mentionOptions } from './mentions';
import { QuotedBlock } from './message-item';
import {
  useAddNote,
  useMentionable,
  useQuickMessages,
  useSendMessage,
  useTypingNotice,
} from './use-ticket-view';

const EmojiPicker = lazy(() => import('./emoji-picker'));

/** The stored sign switch ('signOption', JSON true/false), default on. */
export function readSignOption(): boolean {
  const raw = localStorage.getItem(STORAGE_KEYS.signMessage);
  if (raw === null) return true;
  try {
    return JSON.parse(raw) !== false;
  } catch {
    return raw !== 'false';
  }
}

/**
 * A quick reply suggestion: label '/shortcode - message' cut as a whole to 35 characters
 * (core section 5, "the suggestion label is cut to 35 characters"); `value` is the full message.
 */
export interface QuickReplyOption {
  id: number;
  label: string;
  value: string;
}

/** Suggestions for `text` when it starts with '/' and is longer than 1 character. */
export function quickReplyOptions(text: string, list: QuickMessage[] | undefined): QuickReplyOption[] {
  if (!text.startsWith('/') || text.length <= 1 || !list) return [];
  const search = text.slice(1).toLowerCase();
  return list
    .filter((q) => q.shortcode.toLowerCase().includes(search))
    .map((q) => {
      // Cut by code points so an emoji is never split in half.
      const label = [...`/${q.shortcode} - ${q.message}`].slice(0, QUICK_REPLY_LABEL_LENGTH).join('');
      return { id: q.id, label, value: q.message };
    });
}

/** The composer's text after a refused send of `failed`: the failed text, then what was typed since. */
export function restoredText(failed: string, current: string): string {
  if (!failed) return current;
  return current.trim() ? `${failed}\n${current}` : failed;
}

/** The WhatsApp marker a composer shortcut inserts: Ctrl+B bold, Ctrl+I italic, Ctrl+Shift+X strike. */
export function shortcutMarker(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): string | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (event.shiftKey) return key === 'x' ? '~' : null;
  if (key === 'b') return '*';
  if (key === 'i') return '_';
  return null;
}

const mmss = (total: number) =>
  `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;

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
  const [encoding, setEncoding] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const textInput = useRef<HTMLTextAreaElement>(null);
  // The selection to restore once the text a shortcut changed is rendered.
  const nextSelection = useRef<{ start: number; end: number } | null>(null);
  const send = useSendMessage(ticket.id, ticket.contact.id);
  const recorder = useAudioRecorder();
  const quick = useQuickMessages(text.startsWith('/'));
  const options = useMemo(() => quickReplyOptions(text, quick.data), [text, quick.data]);

  const [mode, setMode] = useState<'reply' | 'note'>('reply');
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

  const closed = ticket.status !== 'open';
  // A send in flight does not disable anything: the agent keeps typing and may send again (the
  // sends are queued in order by the mutation's scope). Notes may be written on any ticket.
  const disabled = (closed && !noteMode) || encoding || recorder.recording;

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
    nextSelection.current = { start: next.caret, end: next.caret };
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after the text a shortcut changed
  useLayoutEffect(() => {
    const selection = nextSelection.current;
    if (!selection || !textInput.current) return;
    nextSelection.current = null;
    textInput.current.setSelectionRange(selection.start, selection.end);
  }, [text]);

  const wrap = (marker: string) => {
    const el = textInput.current;
    const next = wrapSelection(
      text,
      el?.selectionStart ?? text.length,
      el?.selectionEnd ?? text.length,
      marker,
    );
    nextSelection.current = { start: next.start, end: next.end };
    setText(next.text);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const marker = shortcutMarker(event);
    if (marker) {
      event.preventDefault();
      wrap(marker);
      return;
    }
    if (mentionList.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlight((h) => (h + step + mentionList.length) % mentionList.length);
        return;
      }
      if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
        event.preventDefault();
        chooseMention(mentionList[Math.min(highlight, mentionList.length - 1)]!);
        return;
      }
    }
    if (options.length > 0 && !noteMode) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setHighlight((h) => (h + step + options.length) % options.length);
        return;
      }
      if (event.key === 'Escape') {
        setText('');
        return;
      }
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
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

  const startRecording = async () => {
    try {
      await recorder.start();
    } catch {
      toast.error(t('ticketView.recordError'), { autoClose: 2000 });
    }
  };

  const sendRecording = async () => {
    setEncoding(true);
    try {
      const blob = await recorder.stop();
      const file = await recordingToFile(blob);
      if (file.size < AUDIO_MIN_BYTES) {
        toast.warn(t('ticketView.audioTooShort'), { autoClose: 2000 });
        return;
      }
      doSend('', [file]);
    } catch (err) {
      notifyError(err instanceof Error ? err.message : err);
    } finally {
      setEncoding(false);
    }
  };

  return (
    <Box
      data-testid="composer"
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: 1, py: 1 }}
    >
      {replyTo && (
        <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }} data-testid="composer-reply">
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <QuotedBlock
              quoted={{
                id: replyTo.id,
                body: replyTo.body,
                fromMe: replyTo.fromMe,
                mediaType: replyTo.mediaType,
                mediaUrl: replyTo.mediaUrl,
                contact: replyTo.contact,
              }}
            />
          </Box>
          <IconButton
            aria-label={t('common.cancel')}
            data-testid="composer-reply-cancel"
            onClick={onCancelReply}
          >
            <CloseIcon />
          </IconButton>
        </Stack>
      )}
      {files.length > 0 && (
        <Stack
          direction="row"
          spacing={1}
          sx={{ mb: 1, flexWrap: 'wrap', gap: 0.5 }}
          data-testid="composer-files"
        >
          {files.map((file, index) => (
            <Chip
              // biome-ignore lint/suspicious/noArrayIndexKey: files may share a name
              key={`${file.name}-${index}`}
              size="small"
              label={file.name}
              data-testid="composer-file"
              onDelete={disabled ? undefined : () => setFiles((list) => list.filter((_, i) => i !== index))}
            />
          ))}
          <Chip
            size="small"
            variant="outlined"
            label={t('ticketView.clearFiles')}
            data-testid="composer-files-clear"
            onClick={() => setFiles([])}
          />
        </Stack>
      )}
      <Stack
        direction="row"
        spacing={0.5}
        sx={{ mb: 1 }}
        role="group"
        aria-label={t('ticketView.composerMode')}
      >
        {(['reply', 'note'] as const).map((value) => (
          <Chip
            key={value}
            size="small"
            clickable
            label={value === 'reply' ? t('ticketView.modeReply') : t('ticketView.modeNote')}
            color={mode === value ? 'primary' : 'default'}
            variant={mode === value ? 'filled' : 'outlined'}
            aria-pressed={mode === value}
            data-testid={`composer-mode-${value}`}
            onClick={() => {
              setMode(value);
              setHighlight(0);
              textInput.current?.focus();
            }}
          />
        ))}
      </Stack>
      {mentionList.length > 0 && (
        <Paper
          variant="outlined"
          sx={{ mb: 1, maxHeight: 220, overflowY: 'auto' }}
          data-testid="mention-options"
        >
          <List dense disablePadding aria-label={t('ticketView.mentionUsers')}>
            {mentionList.map((user, index) => (
              <ListItemButton
                key={user.id}
                selected={index === highlight}
                data-testid={`mention-option-${user.id}`}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => chooseMention(user)}
              >
                <ListItemText primary={`@${user.name}`} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      {options.length > 0 && !disabled && !noteMode && (
        <Paper
          variant="outlined"
          sx={{ mb: 1, maxHeight: 220, overflowY: 'auto' }}
          data-testid="quick-replies"
        >
          <List dense disablePadding>
            {options.map((option, index) => (
              <ListItemButton
                key={option.id}
                selected={index === highlight}
                data-testid="quick-reply-option"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(option)}
              >
                <ListItemText primary={option.label} />
              </ListItemButton>
            ))}
          </List>
        </Paper>
      )}
      <Stack direction="row" alignItems="flex-end" spacing={0.5}>
        {recorder.recording || encoding ? (
          <Stack direction="row" alignItems="center" spacing={1} sx={{ flex: 1, px: 1, minHeight: 40 }}>
            <IconButton
              aria-label={t('ticketView.recordCancel')}
              data-testid="composer-record-cancel"
              disabled={encoding}
              onClick={recorder.cancel}
            >
              <CancelIcon color="error" />
            </IconButton>
            <Box sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: 'error.main' }} />
            <Typography data-testid="composer-record-timer" sx={{ fontVariantNumeric: 'tabular-nums' }}>
              {mmss(recorder.seconds)}
            </Typography>
            <Box sx={{ flex: 1 }} />
            {encoding ? (
              <CircularProgress size={24} />
            ) : (
              <IconButton
                aria-label={t('ticketView.recordSend')}
                data-testid="composer-record-send"
                onClick={() => void sendRecording()}
              >
                <CheckCircleIcon color="success" />
              </IconButton>
            )}
          </Stack>
        ) : (
          <>
            {!noteMode && (
              <Tooltip title={t('ticketView.emoji')}>
                <span>
                  <IconButton
                    aria-label={t('ticketView.emoji')}
                    data-testid="composer-emoji"
                    disabled={disabled}
                    onClick={(e) => setEmojiAnchor(e.currentTarget)}
                  >
                    <InsertEmoticonIcon />
                  </IconButton>
                </span>
              </Tooltip>
            )}
            {!noteMode && (
              <Tooltip title={t('ticketView.attach')}>
                <span>
                  <IconButton
                    aria-label={t('ticketView.attach')}
                    data-testid="composer-attach-button"
                    disabled={disabled}
                    onClick={() => fileInput.current?.click()}
                  >
                    <AttachFileIcon />
                  </IconButton>
                </span>
              </Tooltip>
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
              <Tooltip title={t('ticketView.record')}>
                <span>
                  <IconButton
                    aria-label={t('ticketView.record')}
                    data-testid="composer-record"
                    disabled={disabled}
                    onClick={() => void startRecording()}
                  >
                    <MicIcon />
                  </IconButton>
                </span>
              </Tooltip>
            )}
            <Tooltip title={noteMode ? t('ticketView.saveNote') : t('ticketView.send')}>
              <span>
                <IconButton
                  color="primary"
                  aria-label={noteMode ? t('ticketView.saveNote') : t('ticketView.send')}
                  data-testid="composer-send"
                  disabled={disabled}
                  onClick={submit}
                >
                  {(noteMode ? addNote.isPending : send.isPending) ? (
                    <CircularProgress size={22} />
                  ) : (
                    <SendIcon />
                  )}
                </IconButton>
              </span>
            </Tooltip>
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
