/** The custom React Flow nodes of the flow editor, one card per node type (document 3 section 2). */
import AccessTime from '@mui/icons-material/AccessTime';
import AccountTree from '@mui/icons-material/AccountTree';
import CallSplit from '@mui/icons-material/CallSplit';
import ConfirmationNumber from '@mui/icons-material/ConfirmationNumber';
import ContentCopy from '@mui/icons-material/ContentCopy';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Help from '@mui/icons-material/Help';
import Image from '@mui/icons-material/Image';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import Message from '@mui/icons-material/Message';
import Mic from '@mui/icons-material/Mic';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Psychology from '@mui/icons-material/Psychology';
import Shuffle from '@mui/icons-material/Shuffle';
import SmartToy from '@mui/icons-material/SmartToy';
import Videocam from '@mui/icons-material/Videocam';
import { Box, IconButton, Paper, Stack, Typography } from '@mui/material';
import { Handle, type NodeProps, type NodeTypes, Position } from '@xyflow/react';
import { createContext, type ReactNode, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { contentElements, type EditorNode, sourceHandlesOf } from './flow-graph';
import { type FlowNodeType, type MenuOption, START_NODE_ID } from './flow-types';

/** The per-node duplicate and delete actions, shared by the editor with every node card. */
export interface FlowNodeActions {
  duplicate: (id: string) => void;
  remove: (id: string) => void;
}

export const FlowNodeActionsContext = createContext<FlowNodeActions>({
  duplicate: () => {},
  remove: () => {},
});

/** Icon and colour of each node type. */
export const NODE_LOOKS: Record<FlowNodeType, { icon: ReactNode; color: string }> = {
  start: { icon: <PlayArrow fontSize="small" />, color: '#3aba38' },
  message: { icon: <Message fontSize="small" />, color: '#6865a5' },
  interval: { icon: <AccessTime fontSize="small" />, color: '#f7953b' },
  condition: { icon: <CallSplit fontSize="small" />, color: '#8a6d3b' },
  menu: { icon: <AccountTree fontSize="small" />, color: '#683ac8' },
  img: { icon: <Image fontSize="small" />, color: '#6865a5' },
  audio: { icon: <Mic fontSize="small" />, color: '#6865a5' },
  video: { icon: <Videocam fontSize="small" />, color: '#6865a5' },
  randomizer: { icon: <Shuffle fontSize="small" />, color: '#1fbade' },
  singleBlock: { icon: <LibraryBooks fontSize="small" />, color: '#ec5858' },
  ticket: { icon: <ConfirmationNumber fontSize="small" />, color: '#f3aa2c' },
  typebot: { icon: <SmartToy fontSize="small" />, color: '#3a6ab8' },
  openai: { icon: <Psychology fontSize="small" />, color: '#10a37f' },
  question: { icon: <Help fontSize="small" />, color: '#e0568f' },
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Node types whose output handles sit on their rows (menu options, randomizer branches). */
const HANDLES_ON_ROWS: readonly FlowNodeType[] = ['menu', 'randomizer'];

/** A right-aligned row of a card with its output handle at the card's right edge. */
function RowWithHandle({ handle, children }: { handle: string; children: ReactNode }) {
  return (
    <div style={{ position: 'relative', textAlign: 'right', padding: '2px 0' }}>
      {children}
      <Handle id={handle} type="source" position={Position.Right} style={{ ...HANDLE_STYLE, right: -8 }} />
    </div>
  );
}

const HANDLE_STYLE = { width: 10, height: 10 } as const;

/** The short summary a card shows for its data. */
function NodeBody({ type, data }: { type: FlowNodeType; data: Record<string, unknown> }) {
  const { t } = useTranslation();
  const integration = (data.typebotIntegration ?? {}) as Record<string, unknown>;
  switch (type) {
    case 'start':
      return <>{t('flows.nodes.startBody')}</>;
    case 'message':
      return <>{text(data.label)}</>;
    case 'interval':
      return <>{t('flows.nodes.intervalLabel', { sec: Number(data.sec ?? 0) })}</>;
    case 'menu':
      return (
        <>
          <div>{text(data.message)}</div>
          {((data.arrayOption as MenuOption[] | undefined) ?? []).map((o) => (
            <RowWithHandle key={o.number} handle={`a${o.number}`}>
              [{o.number}] {o.value}
            </RowWithHandle>
          ))}
        </>
      );
    case 'randomizer': {
      const percent = Number(data.percent ?? 0);
      return (
        <>
          <RowWithHandle handle="a">{percent}%</RowWithHandle>
          <RowWithHandle handle="b">{100 - percent}%</RowWithHandle>
        </>
      );
    }
    case 'singleBlock':
      return (
        <>
          {contentElements(data).map((e) => (
            <div key={e.number}>
              {t(`flows.content.${e.type}`)}: {e.type === 'message' ? e.value : (e.original ?? e.value)}
            </div>
          ))}
        </>
      );
    case 'ticket':
      return <>{text((data.data as Record<string, unknown> | undefined)?.name)}</>;
    case 'question':
      return (
        <>
          <div>{text(integration.message)}</div>
          {text(integration.answerKey) && <div>{`{{${text(integration.answerKey)}}}`}</div>}
        </>
      );
    case 'typebot':
    case 'openai':
      return <>{text(integration.name)}</>;
    case 'condition':
      return <>{`${text(data.key)} ${text(data.condition)} ${text(data.value)}`}</>;
    default:
      return <>{text(data.url)}</>;
  }
}

/** A node card: coloured header with the type's name, duplicate and delete, the summary, the handles. */
export function FlowNodeCard({ id, type, data }: NodeProps<EditorNode>) {
  const { t } = useTranslation();
  const actions = useContext(FlowNodeActionsContext);
  const look = NODE_LOOKS[type] ?? NODE_LOOKS.message;
  const handles = sourceHandlesOf(type, data);
  const isStart = id === START_NODE_ID;
  return (
    <Paper
      elevation={2}
      sx={{ width: 220, borderRadius: 1.5, overflow: 'visible' }}
      data-testid={`flow-node-${id}`}
    >
      {!isStart && <Handle type="target" position={Position.Left} style={HANDLE_STYLE} />}
      <Stack
        direction="row"
        alignItems="center"
        spacing={0.5}
        sx={{ bgcolor: look.color, color: 'common.white', px: 1, py: 0.5, borderRadius: '6px 6px 0 0' }}
      >
        {look.icon}
        <Typography variant="caption" sx={{ flex: 1, fontWeight: 600 }}>
          {t(`flows.nodeTypes.${type}`)}
        </Typography>
        {!isStart && (
          <>
            <IconButton
              size="small"
              className="nodrag"
              sx={{ color: 'inherit', p: 0.25 }}
              aria-label={t('flows.editor.duplicateNode')}
              data-testid={`flow-node-duplicate-${id}`}
              onClick={(e) => {
                e.stopPropagation();
                actions.duplicate(id);
              }}
            >
              <ContentCopy sx={{ fontSize: 14 }} />
            </IconButton>
            <IconButton
              size="small"
              className="nodrag"
              sx={{ color: 'inherit', p: 0.25 }}
              aria-label={t('flows.editor.deleteNode')}
              data-testid={`flow-node-delete-${id}`}
              onClick={(e) => {
                e.stopPropagation();
                actions.remove(id);
              }}
            >
              <DeleteOutline sx={{ fontSize: 14 }} />
            </IconButton>
          </>
        )}
      </Stack>
      <Box sx={{ p: 1, fontSize: 12, wordBreak: 'break-word', minHeight: 24 }}>
        <NodeBody type={type} data={data} />
      </Box>
      {!HANDLES_ON_ROWS.includes(type) &&
        handles.map((handle, index) => (
          <Handle
            key={handle}
            id={handle}
            type="source"
            position={Position.Right}
            style={{ ...HANDLE_STYLE, top: `${((index + 1) * 100) / (handles.length + 1)}%` }}
          />
        ))}
    </Paper>
  );
}

/** React Flow's node types: every type renders as a FlowNodeCard. */
export const NODE_TYPES: NodeTypes = Object.fromEntries(
  (Object.keys(NODE_LOOKS) as FlowNodeType[]).map((type) => [type, FlowNodeCard]),
) as NodeTypes;
