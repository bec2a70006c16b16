import { Alert, Box, CircularProgress, Paper, Tab, Tabs, Typography } from '@mui/material';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../auth/session-context';
import { NoPermission } from '../common/no-permission';
import { OptionsTab } from './options-tab';
import { useCompany, useSettings } from './use-settings';

/*
 * The tabs behind a click (their forms bring react-hook-form and zod), each loaded when first shown;
 * the options tab shows at once and carries no form library.
 */
const SchedulesTab = lazy(() => import('./schedules-tab').then((m) => ({ default: m.SchedulesTab })));
const CompaniesTab = lazy(() =>
  import('../accounts/companies-tab').then((m) => ({ default: m.CompaniesTab })),
);
const PlansTab = lazy(() => import('../accounts/plans-tab').then((m) => ({ default: m.PlansTab })));
const HelpsTab = lazy(() => import('../helps/helps-tab').then((m) => ({ default: m.HelpsTab })));
const PixSettingsForm = lazy(() =>
  import('../billing/pix-settings-form').then((m) => ({ default: m.PixSettingsForm })),
);

/**
 * /settings (document 2 section 2, document 3 section 2): the options tab, and the company
 * schedules tab only while the setting scheduleType is 'company'; the super user's companies, plans
 * and helps tabs. Settings are changed by admins only (the server
 * refuses others), so other profiles see 'Acesso não permitido'.
 */
export function SettingsPage() {
  const me = useCurrentUser();
  if (me.profile !== 'admin' && !me.super) return <NoPermission />;
  return <SettingsTabs companyId={me.companyId} superUser={me.super} />;
}

function SettingsTabs({ companyId, superUser }: { companyId: number; superUser: boolean }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const [tab, setTab] = useState<'options' | 'schedules' | 'companies' | 'plans' | 'helps' | 'billing'>(
    'options',
  );
  const showSchedules = settings.data?.find((s) => s.key === 'scheduleType')?.value === 'company';
  const company = useCompany(companyId, showSchedules);
  useEffect(() => {
    if (!showSchedules && tab === 'schedules') setTab('options');
  }, [showSchedules, tab]);

  let body: ReactNode;
  if (tab === 'billing' && superUser) {
    body = <PixSettingsForm />;
  } else if (tab === 'helps' && superUser) {
    body = <HelpsTab />;
  } else if (tab === 'companies' && superUser) {
    body = <CompaniesTab />;
  } else if (tab === 'plans' && superUser) {
    body = <PlansTab />;
  } else if (settings.isPending) {
    body = (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
        <CircularProgress aria-label={t('common.loading')} />
      </Box>
    );
  } else if (settings.isError) {
    body = <Alert severity="error">{t('settings.loadError')}</Alert>;
  } else if (tab === 'schedules' && showSchedules) {
    body = company.isPending ? (
      <CircularProgress aria-label={t('common.loading')} />
    ) : (
      <SchedulesTab companyId={companyId} schedules={company.data?.schedules} />
    );
  } else {
    body = <OptionsTab settings={settings.data} />;
  }

  return (
    <Box data-testid="settings-page" sx={{ p: 2 }}>
      <Typography variant="h5" sx={{ mb: 2 }}>
        {t('settings.title')}
      </Typography>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Tabs
          value={tab}
          onChange={(_e, value) => setTab(value)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mb: 2 }}
        >
          <Tab value="options" label={t('settings.tabs.options')} data-testid="settings-options-tab" />
          {showSchedules && (
            <Tab
              value="schedules"
              label={t('settings.tabs.schedules')}
              data-testid="settings-schedules-tab"
            />
          )}
          {superUser && (
            <Tab value="companies" label={t('accounts.companies.tab')} data-testid="settings-companies-tab" />
          )}
          {superUser && (
            <Tab value="plans" label={t('accounts.plans.tab')} data-testid="settings-plans-tab" />
          )}
          {superUser && <Tab value="helps" label={t('helps.settingsTab')} data-testid="settings-helps-tab" />}
          {superUser && (
            <Tab value="billing" label={t('billing.settingsTab')} data-testid="settings-billing-tab" />
          )}
        </Tabs>
        <Suspense
          fallback={
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          }
        >
          {body}
        </Suspense>
      </Paper>
    </Box>
  );
}
