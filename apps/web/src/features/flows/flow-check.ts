/**
 * The server's graph rules (`checkFlowGraph`, document 3 section 5), which validate node data with
 * zod: flow-builder-page.tsx imports this module when a graph is first saved, so the editor opens
 * without zod (docs/web.md, "Web delivery").
 */
export { checkFlowGraph } from '@zapdesk/shared';
