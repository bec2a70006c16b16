import {
  Alert,
  Button,
  CircularProgress,
  DialogContent,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Ticket } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogActionButtons } from '../common/dialog-action-buttons';
import { DialogFrame } from '../common/dialog-frame';
import { useCloudTemplates, useCloudWindow, useSendTemplate } from './use-cloud';

/**
 * Above the composer of a ticket on a Cloud API connection: when the customer last wrote
 * more than 24 hours ago, free text is refused (ERR_WAPP_OUTSIDE_WINDOW), so this bar says so and
 * offers the approved message templates instead. Nothing shows for other connections.
 */
export function CloudWindowBar({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const window = useCloudWindow(ticket.id, `${ticket.updatedAt}|${ticket.lastMessage ?? ''}`);
  const [open, setOpen] = useState(false);
  if (!window.data?.cloud || window.data.open || ticket.status === 'closed') return null;
  return (
    <>
      <Alert
        severity="warning"
        data-testid="cloud-window-closed"
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => setOpen(true)}
            data-testid="cloud-template-open"
          >
            {t('cloud.window.sendTemplate')}
          </Button>
        }
      >
        {t('cloud.window.closed')}
      </Alert>
      {open && <TemplateDialog ticket={ticket} onClose={() => setOpen(false)} />}
    </>
  );
}

/** Picks an approved template, fills its {{n}} parameters and sends it. */
function TemplateDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const templates = useCloudTemplates(ticket.id, true);
  const send = useSendTemplate(ticket.id, ticket.contact.id);
  const [selected, setSelected] = useState('');
  const [parameters, setParameters] = useState<string[]>([]);
  const list = templates.data ?? [];
  const template = list.find((x) => `${x.name}|${x.language}` === selected);
  const preview = template
    ? template.body.replace(/\{\{\s*(\d+)\s*\}\}/g, (all, n: string) => parameters[Number(n) - 1] || all)
    : '';
  const complete =
    !!template &&
    parameters.slice(0, template.parameters).filter((p) => p.trim()).length === template.parameters;

  const submit = async () => {
    if (!template) return;
    await send
      .mutateAsync({
        name: template.name,
        language: template.language,
        parameters: parameters.slice(0, template.parameters).map((p) => p.trim()),
      })
      .then(onClose)
      .catch(() => undefined);
  };

  return (
    <DialogFrame
      onClose={onClose}
      title={t('cloud.templates.title')}
      titleId="cloud-template-title"
      maxWidth="sm"
      fullWidth
    >
      <DialogContent dividers>
        {templates.isPending ? (
          <CircularProgress />
        ) : list.length === 0 ? (
          <Typography>{t('cloud.templates.none')}</Typography>
        ) : (
          <Stack spacing={2}>
            <TextField
              select
              label={t('cloud.templates.template')}
              value={selected}
              onChange={(e) => {
                setSelected(e.target.value);
                setParameters([]);
              }}
              slotProps={{ htmlInput: { 'data-testid': 'cloud-template-select' } }}
            >
              {list.map((x) => (
                <MenuItem key={`${x.name}|${x.language}`} value={`${x.name}|${x.language}`}>
                  {x.name} ({x.language})
                </MenuItem>
              ))}
            </TextField>
            {template &&
              Array.from({ length: template.parameters }, (_, i) => (
                <TextField
                  // biome-ignore lint/suspicious/noArrayIndexKey: parameters are positional ({{1}}, {{2}}...)
                  key={i}
                  label={t('cloud.templates.parameter', { n: i + 1 })}
                  value={parameters[i] ?? ''}
                  onChange={(e) =>
                    setParameters((p) => {
                      const next = [...p];
                      next[i] = e.target.value;
                      return next;
                    })
                  }
                  slotProps={{
                    htmlInput: { maxLength: 1024, 'data-testid': `cloud-template-param-${i + 1}` },
                  }}
                />
              ))}
            {template && (
              <Alert severity="info" icon={false} data-testid="cloud-template-preview">
                {preview}
              </Alert>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActionButtons
        onCancel={onClose}
        onAction={() => void submit()}
        actionLabel={t('cloud.templates.send')}
        actionTestId="cloud-template-send"
        disabled={!complete || send.isPending}
      />
    </DialogFrame>
  );
}
