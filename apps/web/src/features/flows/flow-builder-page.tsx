import '@xyflow/react/dist/style.css';
import BugReportIcon from '@mui/icons-material/BugReport';
import SaveIcon from '@mui/icons-material/Save';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  SpeedDial,
  SpeedDialAction,
  SpeedDialIcon,
  Stack,
  Typography,
} from '@mui/material';
import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  type Connection,
  Controls,
  type EdgeChange,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
} from '@xyflow/react';
import type { FlowGraphProblem } from '@zapdesk/shared';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { toast } from 'react-toastify';
import { ApiError } from '../../lib/api';
import { notifyError } from '../../lib/notify';
import { useCurrentUser } from '../auth/session-context';
import {
  connectEdge,
  createNode,
  DELETE_KEYS,
  describeProblem,
  duplicateNode,
  type EditorEdge,
  type EditorNode,
  fromEditor,
  HIGHLIGHT_CLASS,
  highlightNodes,
  markRunNode,
  nextNodePosition,
  RUN_CLASS,
  removeNode,
  replaceNodeData,
  startNode,
  toEditor,
} from './flow-graph';
import { FlowNodeActionsContext, NODE_LOOKS, NODE_TYPES } from './flow-nodes';
import { FlowPlanGate } from './flow-plan-gate';
import {
  CREATABLE_NODE_TYPES,
  canEditFlows,
  FLOW_EDITOR_DELAYS,
  FLOW_TEST_PANEL_WIDTH,
  type FlowNodeType,
  START_NODE_ID,
  TYPES_WITH_DIALOG,
} from './flow-types';
import { useFlowGraph, useSaveFlowGraph } from './use-flows';

type DialogState = { type: FlowNodeType; nodeId?: string } | null;

/** The test panel loads when first opened (it is not part of the editor's own weight). */
const FlowTestPanel = lazy(() => import('./flow-test-panel').then((m) => ({ default: m.FlowTestPanel })));
/** The node dialogs (react-hook-form, zod), loaded when one first opens. */
const NodeDialogSwitch = lazy(() =>
  import('./dialogs/node-dialog-switch').then((m) => ({ default: m.NodeDialogSwitch })),
);

/**
 * /flowbuilder/{id} (document 3 sections 2 and 4): the flow's graph on a React Flow canvas. A
 * speed-dial adds nodes (Inicio, Conteudo, Menu, Randomizador, Intervalo, Ticket, TypeBot, OpenAI,
 * Pergunta) through their create dialogs, placed after the last node; a double click opens a node's
 * edit dialog; each node duplicates (240 px right of the rightmost node) or deletes itself; Delete and
 * Backspace remove the selection; a clicked node is highlighted in blue. The graph loads 500 ms after
 * the screen opens and is saved as a whole with 'Salvar'. Admins get 'Testar fluxo':
 * a side panel runs the saved flow on a simulator phone, and the run's node gets a green outline.
 * A flow that does not exist leaves for /flowbuilders; another load failure offers to try again.
 */
export function FlowBuilderPage() {
  const { id } = useParams();
  const flowId = Number(id);
  if (!Number.isInteger(flowId) || flowId <= 0) return <Navigate to="/flowbuilders" replace />;
  return (
    <FlowPlanGate>
      <ReactFlowProvider>
        <FlowEditor key={flowId} flowId={flowId} />
      </ReactFlowProvider>
    </FlowPlanGate>
  );
}

/** Whether a load or save failed because the flow does not exist (any more, or for this company). */
const isMissing = (err: unknown) => err instanceof ApiError && (err.status === 404 || err.status === 400);

function FlowEditor({ flowId }: { flowId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), FLOW_EDITOR_DELAYS.loadMs);
    return () => clearTimeout(timer);
  }, []);
  const graph = useFlowGraph(flowId, ready);
  const save = useSaveFlowGraph();
  const [nodes, setNodes] = useState<EditorNode[]>([]);
  const [edges, setEdges] = useState<EditorEdge[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [dialOpen, setDialOpen] = useState(false);
  // Readers (the `cshow` flag) see the graph; its write controls are for admins and super users.
  const admin = canEditFlows(useCurrentUser());
  const [testOpen, setTestOpen] = useState(false);
  // Once opened the panel stays mounted, so closing it keeps the run and its conversation.
  const [testUsed, setTestUsed] = useState(false);
  const [runNodeId, setRunNodeId] = useState<string | null>(null);
  /** The graph as last loaded or saved (JSON), to tell unsaved changes before a test run. */
  const savedGraph = useRef('');

  useEffect(() => {
    if (loaded || !graph.data) return;
    const editor = toEditor(graph.data.flow.flow);
    setNodes(editor.nodes);
    setEdges(editor.edges);
    savedGraph.current = JSON.stringify(fromEditor(editor.nodes, editor.edges));
    setLoaded(true);
  }, [graph.data, loaded]);

  // A flow that does not exist (a wrong id, or deleted elsewhere): its error toast is the query's,
  // and the editor leaves for the list instead of waiting forever.
  useEffect(() => {
    if (isMissing(graph.error)) navigate('/flowbuilders', { replace: true });
  }, [graph.error, navigate]);

  const onNodesChange = useCallback(
    (changes: NodeChange<EditorNode>[]) => setNodes((list) => applyNodeChanges(changes, list)),
    [],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<EditorEdge>[]) => setEdges((list) => applyEdgeChanges(changes, list)),
    [],
  );
  const onConnect = useCallback(
    (connection: Connection) => setEdges((list) => connectEdge(list, connection)),
    [],
  );
  const actions = useMemo(
    () => ({
      duplicate: (nodeId: string) => setNodes((list) => duplicateNode(list, nodeId)),
      remove: (nodeId: string) => {
        setNodes((list) => {
          const next = removeNode(list, [], nodeId);
          return next.nodes;
        });
        setEdges((list) => list.filter((e) => e.source !== nodeId && e.target !== nodeId));
      },
    }),
    [],
  );

  const addFromDial = (type: FlowNodeType) => {
    setDialOpen(false);
    if (type === 'start') {
      if (nodes.some((n) => n.id === START_NODE_ID)) toast.info(t('flows.editor.startExists'));
      else setNodes((list) => [...list, startNode(nextNodePosition(list))]);
      return;
    }
    setDialog({ type });
  };

  const onDialogSave = (data: Record<string, unknown>) => {
    if (!dialog) return;
    const { type, nodeId } = dialog;
    setDialog(null);
    setNodes((list) =>
      nodeId ? replaceNodeData(list, nodeId, data) : [...list, createNode(list, type, data)],
    );
  };

  /** Shows why the graph cannot be saved, naming the node and highlighting it. */
  const showProblem = (problem: FlowGraphProblem) => {
    const { nodeId, nodeType, reason } = describeProblem(problem, nodes);
    const where = nodeType ? t('flows.problems.where', { node: t(`flows.nodeTypes.${nodeType}`) }) : '';
    toast.error(`${t(`flows.problems.${reason}`, { defaultValue: t('errors.ERR_FLOW_INVALID') })}${where}`);
    if (nodeId) setNodes((list) => highlightNodes(list, nodeId));
  };

  /**
   * Checks the graph with the server's rules (`checkFlowGraph`), then POST /flowbuilder/flow.
   * Resolves whether it was saved (a refusal is shown).
   */
  const saveGraph = async (): Promise<boolean> => {
    const graph = fromEditor(nodes, edges);
    const { checkFlowGraph } = await import('./flow-check');
    const checked = checkFlowGraph(graph);
    if (!checked.ok) {
      showProblem(checked.problem);
      return false;
    }
    try {
      await save.mutateAsync({ idFlow: flowId, ...graph });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_FLOW_INVALID' && err.body)
        showProblem(err.body as unknown as FlowGraphProblem);
      else notifyError(err);
      if (isMissing(err)) navigate('/flowbuilders', { replace: true });
      return false;
    }
    savedGraph.current = JSON.stringify(graph);
    toast.success(t('flows.toasts.saved'));
    return true;
  };

  const onSave = () => void saveGraph();

  /** Before a test run: the run uses the saved graph, so unsaved changes are saved first. */
  const prepareTest = () =>
    JSON.stringify(fromEditor(nodes, edges)) === savedGraph.current ? Promise.resolve(true) : saveGraph();

  const shownNodes = useMemo(() => markRunNode(nodes, runNodeId), [nodes, runNodeId]);

  const editing = dialog?.nodeId ? nodes.find((n) => n.id === dialog.nodeId) : undefined;

  return (
    <Stack
      spacing={1}
      sx={{ height: 'calc(100vh - 112px)', mr: { xs: 0, sm: testOpen ? `${FLOW_TEST_PANEL_WIDTH}px` : 0 } }}
    >
      <Stack direction="row" alignItems="center" spacing={2}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }} noWrap>
          {graph.data?.flow.name ?? t('flows.editor.title')}
        </Typography>
        {admin && (
          <Alert severity="info" sx={{ py: 0 }} data-testid="flow-save-hint">
            {t('flows.editor.saveHint')}
          </Alert>
        )}
        {admin && (
          <Button
            variant="contained"
            startIcon={<SaveIcon />}
            onClick={onSave}
            disabled={!loaded || save.isPending}
            data-testid="flow-save"
          >
            {t('flows.editor.save')}
          </Button>
        )}
        {admin && (
          <Button
            variant="outlined"
            startIcon={<BugReportIcon />}
            onClick={() => {
              setTestUsed(true);
              setTestOpen((o) => !o);
            }}
            disabled={!loaded}
            data-testid="flow-test-open"
          >
            {t('flows.test.button')}
          </Button>
        )}
      </Stack>
      <Box
        sx={{
          flex: 1,
          position: 'relative',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
          [`& .${HIGHLIGHT_CLASS} > *`]: { outline: '3px solid #1976d2', outlineOffset: 2 },
          // The test run's node: dashed green, around the selection outline when both apply.
          [`& .${RUN_CLASS}`]: { outline: '3px dashed #2e7d32', outlineOffset: 6, borderRadius: 1 },
        }}
        data-testid="flow-canvas"
      >
        {!loaded && graph.isError ? (
          <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }}>
            <Alert
              severity="error"
              data-testid="flow-load-failed"
              action={
                <Button color="inherit" size="small" onClick={() => void graph.refetch()}>
                  {t('flows.editor.retry')}
                </Button>
              }
            >
              {t('flows.editor.loadFailed')}
            </Alert>
          </Box>
        ) : !loaded ? (
          <Box sx={{ display: 'grid', placeItems: 'center', height: '100%' }} data-testid="flow-loading">
            <CircularProgress />
          </Box>
        ) : (
          <FlowNodeActionsContext.Provider value={actions}>
            <ReactFlow<EditorNode, EditorEdge>
              nodes={shownNodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onNodeClick={(_e, node) => setNodes((list) => highlightNodes(list, node.id))}
              onEdgeClick={() => setNodes((list) => highlightNodes(list, null))}
              nodesDraggable={admin}
              nodesConnectable={admin}
              onNodeDoubleClick={(_e, node) => {
                if (admin && node.type && TYPES_WITH_DIALOG.includes(node.type))
                  setDialog({ type: node.type, nodeId: node.id });
              }}
              zoomOnDoubleClick={false}
              deleteKeyCode={admin ? [...DELETE_KEYS] : null}
              fitView
              fitViewOptions={{ maxZoom: 1 }}
              minZoom={0.2}
            >
              <Background />
              <Controls />
            </ReactFlow>
          </FlowNodeActionsContext.Provider>
        )}
        {admin && (
          <SpeedDial
            ariaLabel={t('flows.editor.addNode')}
            icon={<SpeedDialIcon />}
            open={dialOpen}
            onOpen={(_event, reason) => reason === 'toggle' && setDialOpen(true)}
            onClose={(_event, reason) => reason !== 'mouseLeave' && setDialOpen(false)}
            direction="down"
            sx={{ position: 'absolute', top: 16, left: 16 }}
            FabProps={{ size: 'medium', ...({ 'data-testid': 'flow-speed-dial' } as object) }}
          >
            {CREATABLE_NODE_TYPES.map((type) => (
              <SpeedDialAction
                key={type}
                icon={NODE_LOOKS[type].icon}
                slotProps={{
                  tooltip: { title: t(`flows.speedDial.${type}`), open: true },
                  fab: { ...({ 'data-testid': `flow-add-${type}` } as object) },
                }}
                onClick={() => addFromDial(type)}
              />
            ))}
          </SpeedDial>
        )}
      </Box>
      {admin && testUsed && (
        <Suspense fallback={null}>
          <FlowTestPanel
            open={testOpen}
            onClose={() => setTestOpen(false)}
            flowId={flowId}
            prepare={prepareTest}
            onRunNode={setRunNodeId}
          />
        </Suspense>
      )}
      {dialog && (
        <Suspense fallback={null}>
          <NodeDialogSwitch
            type={dialog.type}
            data={editing?.data}
            onSave={onDialogSave}
            onClose={() => setDialog(null)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
