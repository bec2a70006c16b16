import {
  Alert,
  Box,
  Button,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { errorMessage } from '../../lib/notify';
import { validationText } from '../../lib/validation-text';
import { useConnections } from '../connections/use-connections';
import { curlMedia, curlText, sendTest, sendUrl } from './send-test';

const TOKEN_PLACEHOLDER = '<TOKEN>';

function CodeBlock({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ position: 'relative' }}>
      <Box
        component="pre"
        data-testid={testId}
        sx={{
          m: 0,
          p: 1.5,
          pr: 10,
          borderRadius: 1,
          bgcolor: 'action.hover',
          fontFamily: 'monospace',
          fontSize: 13,
          overflowX: 'auto',
          whiteSpace: 'pre',
        }}
      >
        {text}
      </Box>
      <Button
        size="small"
        sx={{ position: 'absolute', top: 4, right: 4 }}
        onClick={() =>
          void navigator.clipboard?.writeText(text).then(() => toast.success(t('messagesAPI.copied')))
        }
      >
        {t('messagesAPI.copy')}
      </Button>
    </Box>
  );
}

/** The error text of a test send: the catalogue's translation of its code, else its status. */
function sendErrorText(error: unknown): string {
  return errorMessage(error) ?? (error instanceof Error ? error.message : String(error));
}

/** One test form: token, number, and the text (or a file with an optional caption). */
function TestForm({ kind, tokens }: { kind: 'text' | 'media'; tokens: { name: string; token: string }[] }) {
  const { t } = useTranslation();
  const [token, setToken] = useState('');
  const [number, setNumber] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const needs = {
    token: !token.trim(),
    number: !number.trim(),
    body: kind === 'text' && !body.trim(),
    file: kind === 'media' && !file,
  };
  const missing = Object.values(needs).some(Boolean);
  // A required field left empty says so once the user has been through it (the file once any
  // field was), so a disabled send button never leaves them guessing.
  const [touched, setTouched] = useState<Partial<Record<keyof typeof needs, boolean>>>({});
  const touch = (field: keyof typeof needs) => () => setTouched((prev) => ({ ...prev, [field]: true }));
  const hint = (field: keyof typeof needs) =>
    needs[field] && (field === 'file' ? Object.keys(touched).length > 0 : touched[field]);
  const required = validationText(t, 'required');
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (missing) return;
    setPending(true);
    setResult(null);
    try {
      const sent = await sendTest({
        token: token.trim(),
        number: number.trim(),
        body,
        file: kind === 'media' ? file : null,
      });
      setResult({ ok: true, text: t('messagesAPI.test.sent', { id: sent.id }) });
      toast.success(t('messagesAPI.test.sent', { id: sent.id }));
    } catch (error) {
      setResult({ ok: false, text: sendErrorText(error) });
    } finally {
      setPending(false);
    }
  };
  return (
    <Box component="form" onSubmit={submit} data-testid={`messages-api-test-${kind}`} noValidate>
      <Stack spacing={1.5}>
        <Typography variant="subtitle1">
          {kind === 'text' ? t('messagesAPI.test.textTitle') : t('messagesAPI.test.mediaTitle')}
        </Typography>
        <TextField
          select={tokens.length > 0}
          label={t('messagesAPI.test.token')}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          onBlur={touch('token')}
          required
          size="small"
          inputProps={{ 'data-testid': `messages-api-${kind}-token`, maxLength: 200 }}
          error={hint('token')}
          helperText={hint('token') ? required : tokens.length ? undefined : t('messagesAPI.test.tokenHelp')}
        >
          {tokens.map((c) => (
            <MenuItem key={`${c.name}-${c.token}`} value={c.token}>
              {c.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label={t('messagesAPI.test.number')}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          onBlur={touch('number')}
          error={hint('number')}
          helperText={hint('number') ? required : undefined}
          required
          size="small"
          placeholder="5511999998888"
          inputProps={{ 'data-testid': `messages-api-${kind}-number`, maxLength: 40, inputMode: 'tel' }}
        />
        <TextField
          label={kind === 'text' ? t('messagesAPI.test.body') : t('messagesAPI.test.caption')}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          onBlur={touch('body')}
          error={hint('body')}
          helperText={hint('body') ? required : undefined}
          required={kind === 'text'}
          multiline
          minRows={2}
          size="small"
          inputProps={{ 'data-testid': `messages-api-${kind}-body`, maxLength: 4096 }}
        />
        {kind === 'media' && (
          <Button variant="outlined" component="label">
            {file ? file.name : t('messagesAPI.test.chooseFile')}
            <input
              hidden
              type="file"
              data-testid="messages-api-media-file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
        )}
        {hint('file') && (
          <Typography variant="caption" color="error" data-testid="messages-api-media-file-hint">
            {required}
          </Typography>
        )}
        <Box>
          <Button
            type="submit"
            variant="contained"
            disabled={missing || pending}
            data-testid={`messages-api-${kind}-submit`}
          >
            {t('messagesAPI.test.send')}
          </Button>
        </Box>
        {result && (
          <Alert severity={result.ok ? 'success' : 'error'} data-testid={`messages-api-${kind}-result`}>
            {result.text}
          </Alert>
        )}
      </Stack>
    </Box>
  );
}

/**
 * The API documentation: the endpoint on this deployment, the connections and their tokens, curl
 * examples for a text and a file, the answers and errors, and the two test forms.
 */
export function ApiDocsTab() {
  const { t } = useTranslation();
  const connections = useConnections({ silent: true });
  const tokens = useMemo(
    () =>
      (connections.data ?? [])
        .filter((c) => c.token)
        .map((c) => ({ id: c.id, name: c.name, token: c.token as string })),
    [connections.data],
  );
  const url = sendUrl();
  const sample = tokens[0]?.token ?? TOKEN_PLACEHOLDER;
  return (
    <Stack spacing={3} data-testid="messages-api-docs">
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('messagesAPI.docs.howTitle')}</Typography>
        <Typography variant="body2">{t('messagesAPI.docs.how')}</Typography>
        <CodeBlock text={`POST ${url}`} testId="messages-api-endpoint" />
      </Stack>
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('messagesAPI.docs.tokensTitle')}</Typography>
        {tokens.length === 0 ? (
          <Alert severity="info">{t('messagesAPI.docs.noTokens')}</Alert>
        ) : (
          <Table size="small" data-testid="messages-api-tokens">
            <TableHead>
              <TableRow>
                <TableCell>{t('messagesAPI.docs.connection')}</TableCell>
                <TableCell>{t('messagesAPI.docs.token')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {tokens.map((c) => (
                <TableRow key={c.id}>
                  <TableCell>{c.name}</TableCell>
                  <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{c.token}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Stack>
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('messagesAPI.docs.textTitle')}</Typography>
        <Typography variant="body2">{t('messagesAPI.docs.text')}</Typography>
        <CodeBlock text={curlText(url, sample)} testId="messages-api-curl-text" />
      </Stack>
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('messagesAPI.docs.mediaTitle')}</Typography>
        <Typography variant="body2">{t('messagesAPI.docs.media')}</Typography>
        <CodeBlock text={curlMedia(url, sample)} testId="messages-api-curl-media" />
      </Stack>
      <Stack spacing={1}>
        <Typography variant="subtitle1">{t('messagesAPI.docs.answerTitle')}</Typography>
        <Typography variant="body2">{t('messagesAPI.docs.answer')}</Typography>
        <CodeBlock
          text={'{ "id": 123, "ids": [123], "ticketId": 45, "contactId": 67 }'}
          testId="messages-api-answer"
        />
        <Typography variant="body2">{t('messagesAPI.docs.errors')}</Typography>
      </Stack>
      <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <TestForm kind="text" tokens={tokens} />
        <TestForm kind="media" tokens={tokens} />
      </Box>
    </Stack>
  );
}
