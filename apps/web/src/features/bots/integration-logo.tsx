import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import HubOutlined from '@mui/icons-material/HubOutlined';
import SmartToyOutlined from '@mui/icons-material/SmartToyOutlined';
import WebhookOutlined from '@mui/icons-material/WebhookOutlined';
import { Avatar } from '@mui/material';
import type { IntegrationType } from '@zapdesk/shared';

const LOGOS: Record<IntegrationType, { icon: typeof HubOutlined; color: string }> = {
  typebot: { icon: SmartToyOutlined, color: '#0042DA' },
  n8n: { icon: HubOutlined, color: '#EA4B71' },
  webhook: { icon: WebhookOutlined, color: '#455A64' },
  dialogflow: { icon: ForumOutlined, color: '#FF9800' },
  flowbuilder: { icon: AccountTreeOutlined, color: '#2E7D32' },
};

/** The logo of an integration type in the list and the dialog. */
export function IntegrationLogo({ type }: { type: IntegrationType }) {
  const { icon: Icon, color } = LOGOS[type];
  return (
    <Avatar
      sx={{ bgcolor: color, width: 32, height: 32 }}
      data-testid={`integration-logo-${type}`}
      alt={type}
    >
      <Icon fontSize="small" />
    </Avatar>
  );
}
