import AccessTimeIcon from '@mui/icons-material/AccessTime';
import DoneIcon from '@mui/icons-material/Done';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { validationText } from '../../lib/validation-text';
import { useCurrentUser } from '../auth/session-context';
import { NoPermission } from '../common/no-permission';
import { useConnections } from '../connections/use-connections';
import { type OutboxItem, useMarkRead, useOutbox, useSendAsCustomer } from './use-simulator';

/** A message this page sent as the customer (kept in memory for the conversation view). */
interface SentItem {
  whatsappId: number;
  number: string;
  id: string;
  body: string;
  at: number;
  ticketId: number;
}

type Entry =
  | { kind: 'sent'; at: number; item: SentItem }
  | { kind: 'received'; at: number; item: OutboxItem };

/** zod and the inbound schema, fetched after the first render (simulator-validation.ts). */
const loadValidation = () => import('./simulator-validation');
type Validation = Awaited<ReturnType<typeof loadValidation>>;

/** Outbox timestamps may be in seconds (WhatsApp style) or milliseconds. */
const toMs = (timestamp: number) => (timestamp < 1e12 ? timestamp * 1000 : timestamp);

/** Ticks of an ack: 0 clock, 1 single, 2 double, 3 and more double blue (read). */
export function AckTicks({ ack }: { ack: number }) {
  const { t } = useTranslation();
  const props = {
    fontSize: 'small' as const,
    'data-testid': `outbox-ack-${ack}`,
    titleAccess: t(`simulator.ack.${Math.min(Math.max(ack, 0), 4)}`),
  };
  if (ack <= 0) return <AccessTimeIcon {...props} sx={{ color: 'text.disabled' }} />;
  if (ack === 1) return <DoneIcon {...props} sx={{ color: 'text.secondary' }} />;
  if (ack === 2) return <DoneAllIcon {...props} sx={{ color: 'text.secondary' }} />;
  return <DoneAllIcon {...props} sx={{ color: '#0288d1' }} />;
}

/**
 * /simulator: an admin plays a customer on a simulator connection. Choose the
 * connection, a phone number and a name, send messages (POST /simulator/:id/messages) and see what
 * the business sent to that number (GET outbox every 2 s) with its ticks; 'mark as read' makes the
 * simulated phone read them (ack 4).
 */
export function SimulatorPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const admin = me.profile === 'admin';
  const connections = useConnections({ enabled: admin });
  const simulators = useMemo(
    () => (connections.data ?? []).filter((c) => c.provider === 'simulator'),
    [connections.data],
  );
  const [chosenId, setChosenId] = useState<number | null>(null);
  const whatsappId = chosenId ?? simulators[0]?.id ?? null;
  const [from, setFrom] = useState('5511999990001');
  const [name, setName] = useState('');
  const [body, setBody] = useState('');
  const [fromError, setFromError] = useState<string | null>(null);
  const [sent, setSent] = useState<SentItem[]>([]);

  const [validation, setValidation] = useState<Validation | null>(null);
  useEffect(() => {
    let live = true;
    void loadValidation().then((loaded) => live && setValidation(loaded));
    return () => {
      live = false;
    };
  }, []);
  // Until the check arrives no number is valid, so the outbox waits for it.
  const number = validation?.validNumber(from) ?? '';
  const outbox = useOutbox(whatsappId, number);
  const send = useSendAsCustomer();
  const markRead = useMarkRead();

  const entries = useMemo<Entry[]>(() => {
    const mine: Entry[] = sent
      .filter((s) => s.whatsappId === whatsappId && s.number === number)
      .map((item) => ({ kind: 'sent', at: item.at, item }));
    const theirs: Entry[] = (outbox.data ?? []).map((item) => ({
      kind: 'received',
      at: toMs(item.timestamp),
      item,
    }));
    return [...mine, ...theirs].sort((a, b) => a.at - b.at);
  }, [sent, outbox.data, whatsappId, number]);

  if (!admin) return <NoPermission />;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (whatsappId === null || body.trim() === '' || send.isPending) return;
    const checked = (validation ?? (await loadValidation())).checkInbound({
      from,
      name: name.trim() || undefined,
      body,
    });
    if (!checked.ok) {
      setFromError(validationText(t, checked.key));
      return;
    }
    setFromError(null);
    const answer = await send.mutateAsync({ whatsappId, body: checked.body }).catch(() => null);
    if (!answer) return;
    setSent((list) => [
      ...list,
      {
        whatsappId,
        number: checked.body.from,
        id: String(answer.id),
        body: checked.body.body,
        at: Date.now(),
        ticketId: answer.ticketId,
      },
    ]);
    setBody('');
  };

  const header = (
    <Typography variant="h5" component="h1">
      {t('simulator.title')}
    </Typography>
  );

  if (connections.isPending)
    return (
      <Stack spacing={2}>
        {header}
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress aria-label={t('simulator.loading')} />
        </Box>
      </Stack>
    );

  if (simulators.length === 0)
    return (
      <Stack spacing={2}>
        {header}
        <Alert severity="info" data-testid="simulator-no-connection">
          {t('simulator.noConnection')} <RouterLink to="/connections">{t('menu.connections')}</RouterLink>
        </Alert>
      </Stack>
    );

  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      {header}
      <Typography variant="body2" color="text.secondary">
        {t('simulator.help')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          select
          label={t('simulator.connection')}
          value={whatsappId ?? ''}
          onChange={(e) => setChosenId(Number(e.target.value))}
          sx={{ minWidth: 200 }}
          slotProps={{ htmlInput: { 'data-testid': 'simulator-connection' } }}
        >
          {simulators.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name} ({t(`connections.status.${c.status}`)})
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('simulator.from')}
          value={from}
          onChange={(e) => {
            setFrom(e.target.value);
            setFromError(null);
          }}
          error={fromError !== null}
          helperText={fromError ?? t('simulator.fromHelp')}
          slotProps={{ htmlInput: { 'data-testid': 'simulator-from', inputMode: 'tel' } }}
        />
        <TextField
          label={t('simulator.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'simulator-name', maxLength: 100 } }}
        />
      </Stack>
      <Paper
        variant="outlined"
        sx={{ p: 2, minHeight: 240, maxHeight: '55vh', overflowY: 'auto', bgcolor: 'action.hover' }}
      >
        <Stack spacing={1} data-testid="simulator-outbox" aria-live="polite">
          {outbox.isError && (
            <Alert severity="warning" data-testid="simulator-outbox-error">
              {t('simulator.outboxError')}
            </Alert>
          )}
          {entries.length === 0 && !outbox.isError && (
            <Typography
              color="text.secondary"
              sx={{ textAlign: 'center', py: 4 }}
              data-testid="simulator-empty"
            >
              {number ? t('simulator.empty') : t('simulator.enterNumber')}
            </Typography>
          )}
          {entries.map((entry) =>
            entry.kind === 'sent' ? (
              <Box
                key={`s-${entry.item.id}`}
                data-testid="sent-item"
                sx={{
                  alignSelf: 'flex-start',
                  maxWidth: '75%',
                  bgcolor: 'background.paper',
                  borderRadius: 2,
                  px: 1.5,
                  py: 1,
                }}
              >
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {entry.item.body}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {formatDateTime(new Date(entry.at))} · {t('simulator.ticket', { id: entry.item.ticketId })}
                </Typography>
              </Box>
            ) : (
              <Box
                key={`r-${entry.item.id}`}
                data-testid="outbox-item"
                data-id={entry.item.id}
                sx={{
                  alignSelf: 'flex-end',
                  maxWidth: '75%',
                  bgcolor: '#d9fdd3',
                  color: 'common.black',
                  borderRadius: 2,
                  px: 1.5,
                  py: 1,
                }}
              >
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {entry.item.body || `[${entry.item.kind}]`}
                </Typography>
                <Stack direction="row" spacing={0.5} alignItems="center" justifyContent="flex-end">
                  <Typography variant="caption">{formatDateTime(new Date(entry.at))}</Typography>
                  <AckTicks ack={entry.item.ack} />
                </Stack>
              </Box>
            ),
          )}
        </Stack>
      </Paper>
      <Stack
        component="form"
        direction="row"
        spacing={1}
        alignItems="flex-start"
        onSubmit={submit}
        noValidate
      >
        <TextField
          label={t('simulator.body')}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void submit();
            }
          }}
          multiline
          maxRows={6}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'simulator-body' } }}
        />
        <Button
          type="submit"
          variant="contained"
          endIcon={<SendIcon />}
          disabled={body.trim() === '' || send.isPending || whatsappId === null}
          data-testid="simulator-send"
          sx={{ minHeight: 56 }}
        >
          {t('simulator.send')}
        </Button>
      </Stack>
      <Box>
        <Button
          variant="outlined"
          startIcon={<DoneAllIcon />}
          disabled={!number || whatsappId === null || markRead.isPending || (outbox.data ?? []).length === 0}
          onClick={() => whatsappId !== null && markRead.mutate({ whatsappId, number })}
          data-testid="simulator-mark-read"
        >
          {t('simulator.markRead')}
        </Button>
      </Box>
    </Stack>
  );
}
