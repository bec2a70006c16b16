import { TableCell, TableRow } from '@mui/material';
import type { Prompt } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { botDeleteTexts } from './bot-delete-texts';
import { usePlanGate } from './plan-gate';
import { useDeletePrompt, usePrompts } from './use-bots';

/** The form, loaded when it is first opened. */
const PromptModal = lazy(() => import('./prompt-modal').then((m) => ({ default: m.PromptModal })));

/**
 * /prompts (document 2 section 2 "Prompts"): table of name, queue, max tokens and actions; add/edit
 * dialog; delete confirmation. Without the plan's useOpenAi: error toast and back to / after 1 s.
 */
export function PromptsPage() {
  const allowed = usePlanGate('useOpenAi');
  return allowed ? <PromptsList /> : null;
}

function PromptsList() {
  const { t } = useTranslation();
  const list = usePrompts();
  const page = useRecordListPage<Prompt, { id: number | null }>({
    ns: 'bots.prompts',
    keys: { delete: 'bots.delete' },
    addTestId: 'add-prompt-button',
    blank: { id: null },
    edit: (prompt) => ({ id: prompt.id }),
    remove: useDeletePrompt(),
    deleteTexts: botDeleteTexts(t, 'prompts'),
  });
  return (
    <ListPage
      {...page.frame}
      modal={page.target && <PromptModal promptId={page.target.id} onClose={page.close} />}
    >
      <DataTable
        testId="prompts-table"
        columns={[
          { label: t('bots.prompts.name') },
          { label: t('bots.prompts.queue') },
          { label: t('bots.prompts.maxTokens'), align: 'center' },
          { label: t('bots.actions'), width: 120, align: 'center' },
        ]}
      >
        {(list.data ?? []).map((prompt) => (
          <TableRow key={prompt.id} hover data-testid={`prompt-row-${prompt.id}`}>
            <TableCell>{prompt.name}</TableCell>
            <TableCell>{prompt.queue?.name ?? ''}</TableCell>
            <TableCell align="center">{prompt.maxTokens}</TableCell>
            <RowActionsCell testIdPrefix="prompt" {...page.actions(prompt)} />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
