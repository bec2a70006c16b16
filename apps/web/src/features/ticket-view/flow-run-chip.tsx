/**
 * The flow a conversation is in: a chip 'Fluxo: <name> · <node type>' in the ticket
 * header while the ticket has a live flow run; for admins it opens the flow in the editor.
 */
import AccountTreeOutlinedIcon from '@mui/icons-material/AccountTreeOutlined';
import { Chip } from '@mui/material';
import type { Ticket } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '../auth/session-context';
import { useMessages, useTicketFlowRun } from './use-ticket-view';

export function FlowRunChip({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const messages = useMessages(ticket.id, ticket.contactId);
  const newest = messages.data?.pages[0]?.messages.reduce((max, m) => Math.max(max, m.id), 0);
  const { data: run } = useTicketFlowRun(ticket.id, newest);
  if (!run) return null;
  const label = run.nodeType
    ? t('ticketView.flowRun', { name: run.flowName, node: t(`flows.nodeTypes.${run.nodeType}`) })
    : t('ticketView.flowRunNoNode', { name: run.flowName });
  const admin = me.profile === 'admin';
  return (
    <Chip
      size="small"
      variant="outlined"
      color="secondary"
      icon={<AccountTreeOutlinedIcon />}
      data-testid="ticket-flow-run"
      label={label}
      title={admin ? t('ticketView.flowRunOpen') : undefined}
      {...(admin ? { component: Link, to: `/flowbuilder/${run.flowId}`, clickable: true } : {})}
    />
  );
}
