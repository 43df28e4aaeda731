/** The empty panel, in a zod-free module so the webview bundle can import it (see contract.ts). */
import type { PanelState } from './contract';

/** The panel before the host's first snapshot arrives (and the base every snapshot's fields are laid over). */
export const EMPTY_PANEL: PanelState = {
  agentName: 'Agent',
  sessionId: null,
  turn: 'starting',
  lastTurnEnd: null,
  message: null,
  readOnly: false,
  canFork: false,
  canSteer: false,
  missingAgent: null,
  plan: null,
  plans: [],
  currentModeId: null,
  availableModes: [],
  availableCommands: [],
  configOptions: [],
  usage: null,
  title: null,
  queuedPrompts: [],
  context: [],
  permissions: [],
  elicitations: [],
  notices: [],
  terminals: {},
  roots: [],
  earlier: null,
  changeSets: [],
};
