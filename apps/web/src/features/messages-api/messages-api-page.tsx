import { Paper, Stack, Tab, Tabs, Typography } from '@mui/material';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { ApiDocsTab } from './api-docs-tab';

/** The webhooks tab (its URL check brings zod), loaded when first shown. */
const WebhooksTab = lazy(() => import('./webhooks-tab').then((m) => ({ default: m.WebhooksTab })));

/** Delay before a user whose plan lacks the external API leaves /messages-api (document 2 section 2). */
export const MESSAGES_API_REDIRECT_MS = 1000;

/**
 * /messages-api (document 2 section 2 "Messages API page"): how to send
 * messages from outside (curl examples with this deployment's URL and the connections' tokens, the
 * text and media test forms) and, for admins, the company's outgoing webhooks with their delivery
 * log. Needs the plan's useExternalApi flag: otherwise the toast 'messagesAPI.toasts.unauthorized'
 * and / after 1 second.
 */
export function MessagesApiPage() {
  const me = useCurrentUser();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = me.super || me.company.plan?.useExternalApi === true;
  useEffect(() => {
    if (allowed) return;
    toast.error(t('messagesAPI.toasts.unauthorized'));
    const timer = setTimeout(() => navigate('/'), MESSAGES_API_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [allowed, navigate, t]);
  const [tab, setTab] = useState<'docs' | 'webhooks'>('docs');
  if (!allowed) return null;
  const admin = me.profile === 'admin' || me.super;
  return (
    <Stack spacing={2}>
      <Typography variant="h6" component="h1">
        {t('messagesAPI.title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Tabs value={tab} onChange={(_e, value) => setTab(value)} sx={{ mb: 2 }}>
          <Tab value="docs" label={t('messagesAPI.tabs.docs')} data-testid="messages-api-tab-docs" />
          {admin && (
            <Tab
              value="webhooks"
              label={t('messagesAPI.tabs.webhooks')}
              data-testid="messages-api-tab-webhooks"
            />
          )}
        </Tabs>
        {tab === 'docs' ? (
          <ApiDocsTab />
        ) : (
          <Suspense fallback={null}>
            <WebhooksTab />
          </Suspense>
        )}
      </Paper>
    </Stack>
  );
}
