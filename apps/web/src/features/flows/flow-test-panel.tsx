import CloseIcon from '@mui/icons-material/Close';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SendIcon from '@mui/icons-material/Send';
import {
  Alert,
  Box,
  Button,
  Divider,
  Drawer,
  IconButton,
  Link,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Toolbar,
  Typography,
} from '@mui/material';
import { FLOW_TEST_DEFAULT_NUMBER, type FlowTestRun, type Message, ZFlowTestBody } from '@zapdesk/shared';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { formatTime } from '../../lib/format';
import { useConnections } from '../connections/use-connections';
import { useSendAsCustomer } from '../simulator/use-simulator';
import { flattenMessages } from '../ticket-view/messages-cache';
import { useMessages } from '../ticket-view/use-ticket-view';
import { FLOW_TEST_PANEL_WIDTH } from './flow-types';
import { useStartFlowTest, useTestRunNode } from './use-flow-test';

export interface FlowTestPanelProps {
  open: boolean;
  onClose: () => void;
  flowId: number;
  /**
   * Called before a run starts: saves the graph when it has unsaved changes (the run uses the saved
   * graph). Resolves false when it could not be saved (the run does not start).
   */
  prepare: () => Promise<boolean>;
  /** The node the run executes or waits on (null: no live run), for the canvas highlight. */
  onRunNode: (nodeId: string | null) => void;
}

/** The part of a message the panel shows: its text, else its file name, else its kind. */
function messageText(message: Message, media: string): string {
  if (message.body.trim()) return message.body;
  return message.mediaName ?? media;
}

/**
 * The flow editor's 'Testar fluxo' side panel: pick a simulator connection and a
 * test phone, 'Iniciar' saves the graph if needed and starts the flow on that phone's ticket
 * (POST /flowbuilder/:id/test); the conversation is the ticket's messages since the start, live
 * through the realtime message events; the customer's answers go to the simulator; the run's node is
 * reported to the editor (`onRunNode`) to outline it on the canvas.
 */
export function FlowTestPanel({ open, onClose, flowId, prepare, onRunNode }: FlowTestPanelProps) {
  const { t } = useTranslation();
  const connections = useConnections({ enabled: open });
  const simulators = useMemo(
    () => (connections.data ?? []).filter((c) => c.provider === 'simulator'),
    [connections.data],
  );
  const [chosenId, setChosenId] = useState<number | null>(null);
  const whatsappId = chosenId ?? simulators[0]?.id ?? null;
  const [number, setNumber] = useState(FLOW_TEST_DEFAULT_NUMBER);
  const [numberError, setNumberError] = useState<string | null>(null);
  const [run, setRun] = useState<(FlowTestRun & { whatsappId: number; number: string; at: number }) | null>(
    null,
  );
  const [answer, setAnswer] = useState('');
  const [starting, setStarting] = useState(false);
  const start = useStartFlowTest(flowId);
  const send = useSendAsCustomer();

  const history = useMessages(run?.ticketId, run?.contactId);
  const conversation = useMemo(
    () =>
      flattenMessages(history.data).filter(
        (m) => run && m.ticketId === run.ticketId && m.id > run.sinceMessageId && !m.reactionToId,
      ),
    [history.data, run],
  );
  const newestId = conversation.at(-1)?.id ?? 0;
  // The newest message stays in sight.
  const scroller = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (newestId && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [newestId]);
  // Followed while the panel is open (a closed panel outlines nothing).
  const node = useTestRunNode(open && run ? run.ticketId : null, run?.at ?? 0, newestId);
  const live = run && node.data ? node.data : null;
  const runNodeId = open && live ? live.nodeId : null;

  useEffect(() => onRunNode(runNodeId), [runNodeId, onRunNode]);
  // A step that sends nothing may precede messages the first history page missed: read it again.
  const liveKey = live ? `${live.nodeId}:${live.status}` : 'none';
  const refetchHistory = history.refetch;
  useEffect(() => {
    if (run && liveKey) void refetchHistory();
  }, [liveKey, run, refetchHistory]);

  const onStart = async () => {
    if (whatsappId === null || starting) return;
    const parsed = ZFlowTestBody.safeParse({ whatsappId, number });
    if (!parsed.success) {
      setNumberError(t('flows.test.invalidNumber'));
      return;
    }
    setNumberError(null);
    setStarting(true);
    try {
      if (!(await prepare())) return;
      const started = await start.mutateAsync(parsed.data).catch(() => null);
      if (started) setRun({ ...started, whatsappId, number: parsed.data.number, at: Date.now() });
    } finally {
      setStarting(false);
    }
  };

  const onAnswer = async (event: FormEvent) => {
    event.preventDefault();
    const body = answer.trim();
    if (!run || !body || send.isPending) return;
    const sent = await send
      .mutateAsync({ whatsappId: run.whatsappId, body: { from: run.number, body } })
      .catch(() => null);
    if (sent) setAnswer('');
  };

  const status = !run
    ? t('flows.test.status.idle')
    : !node.data
      ? node.isFetched
        ? t('flows.test.status.ended')
        : t('flows.test.status.starting')
      : t(`flows.test.status.${node.data.status}`, {
          node: node.data.nodeType ? t(`flows.nodeTypes.${node.data.nodeType}`) : t('flows.test.nodeGone'),
        });

  return (
    <Drawer
      anchor="right"
      variant="persistent"
      open={open}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: FLOW_TEST_PANEL_WIDTH }, p: 2, gap: 1.5 } } }}
      data-testid="flow-test-panel"
    >
      {/* Below the app's top bar, like the side menu. */}
      <Toolbar sx={{ flexShrink: 0 }} />
      <Stack direction="row" alignItems="center">
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t('flows.test.title')}
        </Typography>
        <IconButton onClick={onClose} aria-label={t('flows.test.close')} data-testid="flow-test-close">
          <CloseIcon />
        </IconButton>
      </Stack>
      {connections.isSuccess && simulators.length === 0 ? (
        <Alert severity="info" data-testid="flow-test-no-connection">
          {t('flows.test.noConnection')}{' '}
          <Link component={RouterLink} to="/connections">
            {t('flows.test.openConnections')}
          </Link>
        </Alert>
      ) : (
        <TextField
          select
          size="small"
          label={t('flows.test.connection')}
          value={whatsappId ?? ''}
          onChange={(e) => setChosenId(Number(e.target.value))}
          slotProps={{ htmlInput: { 'data-testid': 'flow-test-connection' } }}
        >
          {simulators.map((c) => (
            <MenuItem key={c.id} value={c.id}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      <TextField
        size="small"
        label={t('flows.test.number')}
        value={number}
        onChange={(e) => setNumber(e.target.value)}
        error={numberError !== null}
        helperText={numberError ?? t('flows.test.numberHelp')}
        slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'flow-test-number' } }}
      />
      <Button
        variant="contained"
        startIcon={<PlayArrowIcon />}
        onClick={onStart}
        disabled={whatsappId === null || starting}
        data-testid="flow-test-start"
      >
        {run ? t('flows.test.restart') : t('flows.test.start')}
      </Button>
      <Typography variant="body2" color="text.secondary" data-testid="flow-test-status">
        {status}
      </Typography>
      <Divider />
      <Box
        ref={scroller}
        sx={{ flex: 1, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: 1 }}
        data-testid="flow-test-conversation"
      >
        {!run && (
          <Typography variant="body2" color="text.secondary">
            {t('flows.test.empty')}
          </Typography>
        )}
        {conversation.map((m) => (
          <Paper
            key={m.id}
            variant="outlined"
            data-testid="flow-test-message"
            data-from={m.fromMe ? 'flow' : 'customer'}
            sx={{
              p: 1,
              maxWidth: '85%',
              alignSelf: m.fromMe ? 'flex-start' : 'flex-end',
              bgcolor: m.fromMe ? 'background.paper' : 'success.light',
              color: m.fromMe ? 'text.primary' : 'success.contrastText',
            }}
          >
            <Typography variant="caption" sx={{ display: 'block', opacity: 0.8 }}>
              {m.fromMe ? t('flows.test.flow') : t('flows.test.customer')} · {formatTime(m.createdAt)}
            </Typography>
            <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {messageText(m, t('flows.test.media'))}
            </Typography>
          </Paper>
        ))}
      </Box>
      <Stack component="form" direction="row" spacing={1} onSubmit={onAnswer}>
        <TextField
          size="small"
          fullWidth
          placeholder={t('flows.test.answer')}
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          disabled={!run}
          slotProps={{ htmlInput: { maxLength: 4096, 'data-testid': 'flow-test-answer' } }}
        />
        <IconButton
          type="submit"
          color="primary"
          disabled={!run || !answer.trim() || send.isPending}
          aria-label={t('flows.test.send')}
          data-testid="flow-test-send"
        >
          <SendIcon />
        </IconButton>
      </Stack>
    </Drawer>
  );
}
