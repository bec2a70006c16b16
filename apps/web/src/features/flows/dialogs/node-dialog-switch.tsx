import type { FlowNodeType } from '../flow-types';
import { ContentDialog } from './content-dialog';
import { OpenAiDialog, TypebotDialog } from './integration-node-dialogs';
import {
  IntervalDialog,
  MenuDialog,
  QuestionDialog,
  RandomizerDialog,
  TicketDialog,
} from './simple-node-dialogs';

/** The create (no `data`) or edit dialog of a node type; nothing for types without one. */
export function NodeDialogSwitch({
  type,
  data,
  onSave,
  onClose,
}: {
  type: FlowNodeType;
  data?: Record<string, unknown>;
  onSave: (data: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  // Each dialog reads the data shape of its type (document 3 section 3); the editor stores it as is.
  const props = { data: data as never, onSave: onSave as never, onClose };
  switch (type) {
    case 'singleBlock':
      return <ContentDialog {...props} />;
    case 'menu':
      return <MenuDialog {...props} />;
    case 'randomizer':
      return <RandomizerDialog {...props} />;
    case 'interval':
      return <IntervalDialog {...props} />;
    case 'ticket':
      return <TicketDialog {...props} />;
    case 'typebot':
      return <TypebotDialog {...props} />;
    case 'openai':
      return <OpenAiDialog {...props} />;
    case 'question':
      return <QuestionDialog {...props} />;
    default:
      return null;
  }
}
