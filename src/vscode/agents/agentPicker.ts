/**
 * The *Add Agent…* quick pick: opens at once (busy while the registry loads), says where its list comes
 * from (and, for the offline list, why), and has a Refresh button that fetches the registry again.
 * Everything in it comes from the registry and is untrusted: text through `labelText`, icons only as
 * https or image data URIs, which VS Code shows as images, never as markup.
 */
import * as vscode from 'vscode';
import { safeIconUrl } from '../../common/agents/registry';
import { addAgentPlaceholder } from '../../common/agents/agentChoice';
import { labelText } from '../../common/untrusted';
import { errorText } from '../../common/util/errors';
import { needsText, type Candidate, type CatalogView } from './agentCatalog';
import { originText } from '../../node/registry/registrySource';

export type AgentItem = vscode.QuickPickItem & { readonly candidate?: Candidate; readonly byUrl?: true };

/** What the picker gives: a registry agent, or the choice to add one by URL (addRemoteAgent.ts). */
export type PickedAgent = Candidate | 'url';

/** The part of VS Code's QuickPick the picker uses: a test can stand in for the user through it. */
export type PickerView = Pick<
  vscode.QuickPick<AgentItem>,
  | 'title'
  | 'placeholder'
  | 'matchOnDescription'
  | 'matchOnDetail'
  | 'buttons'
  | 'busy'
  | 'items'
  | 'selectedItems'
  | 'onDidTriggerButton'
  | 'onDidAccept'
  | 'onDidHide'
  | 'show'
  | 'dispose'
>;

export async function pickAgent(
  load: (force: boolean) => Promise<CatalogView>,
  createPicker: () => PickerView = () => vscode.window.createQuickPick<AgentItem>(),
): Promise<PickedAgent | undefined> {
  const qp = createPicker();
  qp.title = 'ACP: Add Agent';
  qp.placeholder = 'Loading the agent registry…';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  const refresh: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('refresh'), tooltip: 'Fetch the agent registry again' };
  qp.buttons = [refresh];
  let generation = 0;
  const fill = (force: boolean): void => {
    const mine = ++generation;
    qp.busy = true;
    load(force).then(
      (view) => {
        if (mine !== generation) return;
        qp.items = items(view);
        // Where the list comes from (and why it is the offline one) in the title: a separator's label would
        // be drawn over the first agent's, and a long placeholder is cut mid-sentence.
        qp.title = labelText(`ACP: Add Agent — ${originText(view.origin, Date.now())}`, 200);
        qp.placeholder = addAgentPlaceholder(view.origin.kind === 'offline');
        qp.busy = false;
      },
      (e: unknown) => {
        if (mine !== generation) return;
        qp.items = [];
        qp.title = labelText(`ACP: Add Agent — the agent list could not be loaded: ${errorText(e)}`, 200);
        qp.busy = false;
      },
    );
  };
  try {
    return await new Promise<PickedAgent | undefined>((resolve) => {
      qp.onDidTriggerButton((b) => b === refresh && fill(true));
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0];
        if (item?.byUrl) resolve('url');
        else if (item?.candidate) resolve(item.candidate);
      });
      qp.onDidHide(() => resolve(undefined));
      qp.show();
      fill(false);
    });
  } finally {
    qp.dispose();
  }
}

function items(view: CatalogView): AgentItem[] {
  return [
    ...view.candidates.map((c): AgentItem => {
      const icon = safeIconUrl(c.agent.icon);
      const command = c.plan?.kind === 'package' ? `${[c.plan.entry.command, ...c.plan.entry.args].join(' ')} — ` : '';
      return {
        label: labelText(c.agent.name),
        description: labelText(`${c.agent.version ? `${c.agent.version} · ` : ''}${needsText(c)}`),
        // The launch command first: a long description would push it past the list's width.
        detail: labelText(`${command}${c.agent.description}`, 300),
        ...(icon ? { iconPath: vscode.Uri.parse(icon, true) } : {}),
        candidate: c,
      };
    }),
    // Last, so the list's first row is one of its agents (issue 38 item 7).
    {
      label: '$(link) Agent by URL…',
      description: 'wss:// or https://',
      detail: 'An agent running elsewhere (a container, a dev box, a cloud sandbox), over WebSocket or Streamable HTTP',
      byUrl: true,
    },
  ];
}
