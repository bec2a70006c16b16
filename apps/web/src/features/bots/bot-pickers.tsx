import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { OptionalIdSelect } from '../common/id-select';
import { useIntegrationsList, usePlanFlag, usePrompts } from './use-bots';

/** Who answers a queue's or connection's tickets: an AI prompt and/or a queue integration. */
export interface BotChoice {
  promptId: number | null;
  integrationId: number | null;
}

interface BotPickersProps {
  value: BotChoice;
  onChange: (next: BotChoice) => void;
  /** data-testid prefix: `${prefix}-prompt`, `${prefix}-integration`. */
  testIdPrefix: string;
}

/**
 * The prompt and integration pickers of the queue and connection modals (document 2 section 7:
 * GET /prompt and GET /queueIntegration). Each shows only when the company plan has its flag.
 */
export function BotPickers({ value, onChange, testIdPrefix }: BotPickersProps) {
  const { t } = useTranslation();
  const openAi = usePlanFlag('useOpenAi');
  const integrationsOn = usePlanFlag('useIntegrations');
  const prompts = usePrompts(openAi);
  const integrations = useIntegrationsList('', integrationsOn);
  if (!openAi && !integrationsOn) return null;
  const integrationOptions = integrations.data?.pages.flatMap((p) => p.queueIntegrations);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {openAi && (
        <div data-testid={`${testIdPrefix}-prompt`} style={{ flex: 1 }}>
          <OptionalIdSelect
            label={t('bots.pickers.prompt')}
            options={prompts.data}
            value={value.promptId}
            onChange={(promptId) => onChange({ ...value, promptId })}
          />
        </div>
      )}
      {integrationsOn && (
        <div data-testid={`${testIdPrefix}-integration`} style={{ flex: 1 }}>
          <OptionalIdSelect
            label={t('bots.pickers.integration')}
            options={integrationOptions}
            value={value.integrationId}
            onChange={(integrationId) => onChange({ ...value, integrationId })}
          />
        </div>
      )}
    </Stack>
  );
}
