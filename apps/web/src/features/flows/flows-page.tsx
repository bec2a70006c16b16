import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import MoreVert from '@mui/icons-material/MoreVert';
import WarningAmber from '@mui/icons-material/WarningAmber';
import {
  IconButton,
  ListItemIcon,
  ListItemText,
  Menu,
  MenuItem,
  Stack,
  Switch,
  TableCell,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { lazy, type MouseEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { DataTable } from '../common/data-table';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { usePageRows, useSearchBox } from '../common/use-list-page';
import { FlowPlanGate } from './flow-plan-gate';
import { canEditFlows, type Flow } from './flow-types';
import { useDeleteFlow, useDuplicateFlow, useFlows, useSetFlowActive } from './use-flows';

/** The name form (react-hook-form, zod), loaded when it is first opened. */
const FlowNameDialog = lazy(() => import('./flow-name-dialog').then((m) => ({ default: m.FlowNameDialog })));

/** True when the server flagged the flow as referencing a deleted queue or integration. */
export function hasBrokenReferences(flow: Flow): boolean {
  return flow.broken === true;
}

/**
 * /flowbuilders, 'Fluxos de conversa' (document 3 section 2): searchable (500 ms) list of flows with
 * name and status (a switch), paged by infinite scroll; a row opens its editor; the row menu edits the name,
 * opens the editor, duplicates or deletes (after confirmation); the add button opens the name
 * dialog. Flows the server flags as referencing a deleted queue or integration show a warning.
 */
export function FlowsPage() {
  return (
    <FlowPlanGate>
      <FlowsList />
    </FlowPlanGate>
  );
}

function FlowsList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const canEdit = canEditFlows(useCurrentUser());
  const search = useSearchBox(t('flows.search'), 'flows-search');
  const list = useFlows(search.param);
  const duplicate = useDuplicateFlow();
  const setActive = useSetFlowActive();
  const [nameDialog, setNameDialog] = useState<{ flow: Flow | null } | null>(null);
  const confirmDelete = useConfirmDelete<Flow>(useDeleteFlow(), 'flows');
  const [menu, setMenu] = useState<{ anchor: HTMLElement; flow: Flow } | null>(null);
  const flows = usePageRows(list, 'flows');

  const openMenu = (event: MouseEvent<HTMLElement>, flow: Flow) => {
    event.stopPropagation();
    setMenu({ anchor: event.currentTarget, flow });
  };
  const act = (action: (flow: Flow) => void) => () => {
    if (!menu) return;
    const { flow } = menu;
    setMenu(null);
    action(flow);
  };

  return (
    <ListPage
      fill
      title={t('flows.title')}
      search={search.box}
      add={
        canEdit
          ? { label: t('flows.add'), testId: 'add-flow', onClick: () => setNameDialog({ flow: null }) }
          : undefined
      }
      modal={
        nameDialog && (
          <FlowNameDialog
            flow={nameDialog.flow}
            onClose={() => setNameDialog(null)}
            onCreated={(flow) => navigate(`/flowbuilder/${flow.id}`)}
          />
        )
      }
      deleteDialog={confirmDelete.dialog}
    >
      <DataTable
        testId="flows-table"
        pages={list}
        columns={[
          { label: t('flows.table.name') },
          { label: t('flows.table.status'), width: 140, align: 'center' },
          { label: t('flows.table.actions'), width: 90, align: 'center' },
        ]}
      >
        {flows.map((flow) => (
          <TableRow
            key={flow.id}
            hover
            data-testid={`flow-row-${flow.id}`}
            sx={{ cursor: 'pointer' }}
            onClick={() => navigate(`/flowbuilder/${flow.id}`)}
          >
            <TableCell>
              <Stack direction="row" spacing={1} alignItems="center">
                <AccountTreeOutlined fontSize="small" color="action" />
                <span>{flow.name}</span>
                {hasBrokenReferences(flow) && (
                  <Tooltip title={t('flows.brokenReferences')}>
                    <WarningAmber
                      fontSize="small"
                      color="warning"
                      aria-label={t('flows.brokenReferences')}
                      data-testid={`flow-broken-${flow.id}`}
                    />
                  </Tooltip>
                )}
              </Stack>
            </TableCell>
            <TableCell align="center">
              <Stack
                direction="row"
                alignItems="center"
                justifyContent="center"
                onClick={(e) => e.stopPropagation()}
              >
                <Switch
                  size="small"
                  checked={flow.active}
                  disabled={!canEdit}
                  onChange={(e) =>
                    setActive.mutate(
                      { flowId: flow.id, active: e.target.checked },
                      { onSuccess: () => toast.success(t('flows.toasts.updated')) },
                    )
                  }
                  slotProps={{
                    input: {
                      'aria-label': t('flows.table.status'),
                      // @ts-expect-error data attributes pass through to the input
                      'data-testid': `flow-active-${flow.id}`,
                    },
                  }}
                />
                <Typography variant="caption">
                  {flow.active ? t('flows.active') : t('flows.inactive')}
                </Typography>
              </Stack>
            </TableCell>
            <TableCell align="center">
              {canEdit && (
                <IconButton
                  size="small"
                  aria-label={t('flows.rowMenu', { name: flow.name })}
                  data-testid={`flow-menu-${flow.id}`}
                  onClick={(e) => openMenu(e, flow)}
                >
                  <MoreVert fontSize="small" />
                </IconButton>
              )}
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
      {list.isSuccess && flows.length === 0 && (
        <Typography color="text.secondary" data-testid="flows-empty">
          {t('flows.empty')}
        </Typography>
      )}
      <Menu anchorEl={menu?.anchor ?? null} open={menu !== null} onClose={() => setMenu(null)}>
        <MenuItem data-testid="flow-action-rename" onClick={act((flow) => setNameDialog({ flow }))}>
          <ListItemIcon>
            <Edit fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('flows.actions.rename')}</ListItemText>
        </MenuItem>
        <MenuItem data-testid="flow-action-edit" onClick={act((flow) => navigate(`/flowbuilder/${flow.id}`))}>
          <ListItemIcon>
            <AccountTreeOutlined fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('flows.actions.editFlow')}</ListItemText>
        </MenuItem>
        <MenuItem
          data-testid="flow-action-duplicate"
          onClick={act((flow) =>
            duplicate.mutate(flow.id, { onSuccess: () => toast.success(t('flows.toasts.duplicated')) }),
          )}
        >
          <ListItemIcon>
            <ContentCopy fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('flows.actions.duplicate')}</ListItemText>
        </MenuItem>
        <MenuItem data-testid="flow-action-delete" onClick={act((flow) => confirmDelete.ask(flow))}>
          <ListItemIcon>
            <DeleteOutline fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('flows.actions.delete')}</ListItemText>
        </MenuItem>
      </Menu>
    </ListPage>
  );
}
